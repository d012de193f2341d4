#!/usr/bin/env python3
"""The project's source rules, checked (run by scripts/check.sh, which CI runs through scripts/test.sh).

1. Unsafe code and C stay in the wrapper layers. Only the wrapper targets (WRAPPERS) may import a C module or
   the C library (Glibc, Darwin), make an OpaquePointer, use withUnsafe…, or create, cast or rebind pointers. The
   facade targets (FACADES), whose Apple signatures take pointers, may name pointer types (OpaquePointer included,
   for the handles Apple imports as such) in signatures and read or write
   through the pointers they are handed (`.pointee`, `Data(bytes:count:)`, `copyBytes(to:)`), nothing more. Every
   other target may not mention a pointer type at all.
2. No line of Swift is longer than 120 columns.
3. Layers: every target of Package.swift has a place in LAYERS, depends only on targets of lower layers, and
   imports only the package targets it declares as direct dependencies (SwiftPM's import check accepts any
   target of the dependency closure; this one does not). Test targets may depend on any layer.
Exit status 1 and one line per finding (`path:line: rule: text`) when something is broken.
"""
import json
import os
import re
import subprocess
import sys

# Targets that wrap C: OpenSSL (libcrypto, libssl), SQLite, POSIX, libpq, and the benchmark's C baseline.
WRAPPERS = {"OSecCrypto", "OSecSQLite", "OSecSystem", "OSecTLSCore", "OSecPostgres", "OpenSSLBaseline"}
WRAPPERS |= {"OSecDBus"}  # libdbus (the Secret Service provider)
WRAPPERS |= {"OSecLocks", "OSecCryptoFoundation"}  # pthread mutexes; NSData bytes for the facade
# Targets that mirror Apple's C-shaped API (pointer parameters in Apple's signatures).
FACADES = {"Security", "CommonCrypto", "LocalAuthentication"}
C_MODULE = re.compile(r"^\s*(@_implementationOnly\s+|internal\s+|package\s+|public\s+)?import\s+(C[A-Z]\w*|Glibc|Darwin|Musl)\b")
ALWAYS_WRAPPER_ONLY = re.compile(
    r"\bOpaquePointer\s*\(|\bwithUnsafe\w*|\.baseAddress\b|assumingMemoryBound|bindMemory|unsafeBitCast|\.advanced\(by:|"
    r"\bUnsafe\w*Pointer\s*(\(|\.allocate)|\bUnsafe\w*BufferPointer\b|\.toOpaque\(|fromOpaque"
)
# The layer of every target: a target may depend only on targets of a lower layer.
LAYERS = {
    "COpenSSL": 0, "CSQLite": 0, "CLibPQ": 0, "CLibSSL": 0,
    "COpenSSLShims": 1, "COpenSSLBaseline": 1, "CTLSShims": 1, "CSystemShims": 1,
    "CLibPQLoader": 1,
    "OSecLocks": 1,
    "OSecToolCore": 6, "SecurityFront": 9, "OSecToolBase": 4, "OSecKeychainPaths": 3,
    "OSecCryptoFoundation": 3,
    "OSecASN1": 1,
    "OSecCrypto": 2, "OSecSQLite": 2, "OSecSystem": 2, "OSecTLSCore": 2, "OSecPostgres": 2, "OpenSSLBaseline": 2,
    "OSecX509": 3, "OSecKeychainAgent": 3,
    "OSecPKCS12": 4, "OSecTrust": 4,
    "OSecCMS": 4,
    "OSecKeychain": 5,
    "OSecSync": 6,
    "Security": 7, "CommonCrypto": 7,
    "OpenSecurityKit": 8, "OSecTestSupport": 8, "OSecLimbo": 8, "OpenSecurityTLS": 8,
    "LocalAuthentication": 8,
    "CDBusLoader": 1, "OSecDBus": 2, "OSecSecretService": 6,
    "SecurityTool": 9, "Benchmarks": 9, "LimboHarness": 9, "KeychainStress": 9, "TLSLoad": 9, "SyncStress": 9,
}
IMPORT = re.compile(r"^\s*(?:@_implementationOnly\s+|@testable\s+|internal\s+|package\s+|public\s+)*import\s+(\w+)")
# Apple imports some opaque C handles (CCCryptorRef, SecRandomRef, …) as `OpaquePointer`: a facade may name the type
# in a signature, but only a wrapper makes one (OSecSystem.OpaqueHandleTable).
POINTER_TYPE = re.compile(r"\bUnsafe\w*Pointer\b|\bOpaquePointer\b")
LIMIT = 120


def target_of(path):
    parts = path.split(os.sep)
    if parts[0] == "Sources" and len(parts) > 1:
        return parts[1]
    return None


def strip_comments_and_strings(line):
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    index = line.find("//")
    return line if index < 0 else line[:index]


def package_targets():
    """name -> (type, source directory, direct dependencies) from `swift package dump-package`."""
    dump = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True,
                                     text=True).stdout)
    targets = {}
    for target in dump["targets"]:
        dependencies = [value[0] for dependency in target.get("dependencies", []) for value in dependency.values()]
        default = "Tests" if target["type"] == "test" else "Sources"
        targets[target["name"]] = (target["type"], target.get("path") or f"{default}/{target['name']}",
                                   dependencies)
    return targets


def check_layers(findings):
    targets = package_targets()
    for name, (kind, path, dependencies) in sorted(targets.items()):
        if kind != "test" and name not in LAYERS:
            findings.append(f"Package.swift: layer: target {name} has no layer in scripts/check-rules.py LAYERS")
            continue
        for dependency in dependencies:
            if kind != "test" and LAYERS.get(dependency, 99) >= LAYERS[name]:
                findings.append(f"Package.swift: layer: {name} (layer {LAYERS[name]}) depends on {dependency} "
                                f"(layer {LAYERS.get(dependency, '?')})")
        for directory, _, files in os.walk(path):
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                source = os.path.join(directory, file)
                with open(source, encoding="utf-8") as handle:
                    for number, line in enumerate(handle, 1):
                        match = IMPORT.match(line)
                        if match and match.group(1) in targets and match.group(1) not in dependencies:
                            findings.append(f"{source}:{number}: undeclared-import: {name} imports "
                                            f"{match.group(1)} without declaring it a dependency")


def main():
    findings = []
    check_layers(findings)
    for top in ("Sources", "Tests", "Fuzz"):
        for directory, _, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                target = target_of(path)
                with open(path, encoding="utf-8") as handle:
                    lines = handle.read().split("\n")
                for number, line in enumerate(lines, 1):
                    if len(line) > LIMIT:
                        findings.append(f"{path}:{number}: line-length: {len(line)} columns (limit {LIMIT})")
                    if target is None or target in WRAPPERS:
                        continue
                    code = strip_comments_and_strings(line)
                    if C_MODULE.search(code):
                        findings.append(f"{path}:{number}: c-outside-wrappers: {line.strip()}")
                    elif ALWAYS_WRAPPER_ONLY.search(code):
                        findings.append(f"{path}:{number}: unsafe-outside-wrappers: {line.strip()}")
                    elif target not in FACADES and POINTER_TYPE.search(code):
                        findings.append(f"{path}:{number}: pointer-outside-facade: {line.strip()}")
    for finding in findings:
        print(finding)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
