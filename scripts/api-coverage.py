#!/usr/bin/env python3
"""Coverage of Apple's headers by our modules: every declaration of API/<Module>/<Header>.txt, type-checked.

Each list (one per Apple header) holds one declaration per line, `<name>\\t<Swift type>`:
    kSecClass\tCFString                                  a value of that type
    SecItemAdd\t(CFDictionary, UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus    a function (overloads: one line each)
    SecKey\ttype                                         a type
    SecPadding.PKCS1\tSecPadding                         a static member or enum case
    SecKeyAlgorithm.init(rawValue:)\t(CFString) -> SecKeyAlgorithm              an initializer
    SecKeyAlgorithm.rawValue\tinstance CFString          an instance property
`#` starts a comment line; a trailing `\\t# left out: reason` marks a declaration deliberately not provided.

The script generates Swift that checks `let _: T = name` (or `_ = T.self`) per declaration, type-checks it against
the built module, attributes every compiler error to its declaration and prints, per header: provided with Apple's
type, provided with another type, missing, left out on purpose (and left out but provided anyway). Exit status 1
when a declaration that is not marked "left out" is missing or has another type.

    scripts/api-coverage.py [--module Security|CommonCrypto|all] [--no-build] [--list]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
API = os.path.join(ROOT, "API")
LEFT_OUT = re.compile(r"\t#\s*left out:\s*(.*)$")
MISSING = re.compile(r"cannot find (type )?'[^']+' in scope|has no member '|module '[^']+' has no member")


class Declaration:
    def __init__(self, header, number, name, swift_type, left_out):
        self.header, self.number, self.name, self.type, self.left_out = header, number, name, swift_type, left_out
        self.errors = []

    def check(self):
        """The Swift statement that holds when the declaration is provided with Apple's type."""
        if self.type == "type":
            return f"_ = {self.name}.self"
        if self.type.startswith("instance "):
            owner, member = self.name.rsplit(".", 1)
            return f"let _: ({owner}) -> {self.type[len('instance '):]} = {{ $0.{member} }}"
        return f"let _: {self.type} = {self.name}"

    @property
    def status(self):
        if not self.errors:
            return "left out, but provided" if self.left_out else "provided"
        if self.left_out:
            return "left out"
        return "missing" if any(MISSING.search(e) for e in self.errors) else "other type"


def read_lists(module):
    directory = os.path.join(API, module)
    declarations = []
    for file in sorted(os.listdir(directory)):
        if not file.endswith(".txt"):
            continue
        header = file[:-len(".txt")]
        header = header if header.endswith(".h") else header + ".h"
        with open(os.path.join(directory, file), encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                line = line.rstrip("\n")
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                left_out = None
                match = LEFT_OUT.search(line)
                if match:
                    left_out = match.group(1).strip()
                    line = line[:match.start()]
                fields = line.split("\t")
                if len(fields) != 2 or not fields[0] or not fields[1]:
                    sys.exit(f"{file}:{number}: expected <name>\\t<Swift type>: {line!r}")
                declarations.append(Declaration(header, number, fields[0].strip(), fields[1].strip(), left_out))
    return declarations


def compiler_arguments(module):
    """The search paths SwiftPM used to compile `module` (module maps of the C targets, module directory)."""
    description = os.path.join(ROOT, ".build", "debug", "description.json")
    with open(description, encoding="utf-8") as handle:
        commands = json.load(handle)["swiftCommands"]
    for name, command in commands.items():
        if name.startswith(f"C.{module}-") and name.endswith(".module"):
            arguments = command.get("otherArguments") or []
            break
    else:
        sys.exit(f"api-coverage: no build command for module {module} in {description}")
    kept = []
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        if argument in ("-I", "-Xcc", "-module-cache-path", "-target", "-sdk") and index + 1 < len(arguments):
            kept += [argument, arguments[index + 1]]
            index += 2
            continue
        if argument.startswith("-I") and len(argument) > 2:
            # A system library's pkg-config include path (e.g. -I/usr/include/postgresql for libpq).
            kept.append(argument)
        index += 1
    modules = os.path.join(ROOT, ".build", "debug", "Modules")
    return ["-I", modules] + kept


def type_check(module, declarations):
    lines = ["import Foundation", f"import {module}", ""]
    line_of = {}
    for index, declaration in enumerate(declarations):
        lines.append(f"func _coverage{index}() {{")
        line_of[len(lines) + 1] = declaration
        lines.append(f"    {declaration.check()}")
        lines.append("}")
    with tempfile.TemporaryDirectory(prefix="api-coverage") as directory:
        source = os.path.join(directory, f"{module}Coverage.swift")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        command = ["swiftc", "-typecheck", "-swift-version", "5", "-module-name", f"{module}Coverage",
                   *compiler_arguments(module), source]
        result = subprocess.run(command, capture_output=True, text=True)
    pattern = re.compile(rf"^{re.escape(source)}:(\d+):\d+: error: (.*)$")
    unattributed = []
    for line in (result.stdout + result.stderr).splitlines():
        match = pattern.match(line)
        if not match:
            if ": error:" in line:
                unattributed.append(line)
            continue
        declaration = line_of.get(int(match.group(1)))
        if declaration is None:
            unattributed.append(line)
        elif match.group(2) not in declaration.errors:
            declaration.errors.append(match.group(2))
    if unattributed:
        print("\n".join(unattributed), file=sys.stderr)
        sys.exit(f"api-coverage: {len(unattributed)} compiler errors could not be attributed to a declaration")


def report(module, declarations, list_all):
    statuses = ["provided", "other type", "missing", "left out", "left out, but provided"]
    by_header = {}
    for declaration in declarations:
        by_header.setdefault(declaration.header, []).append(declaration)
    print(f"{module}: coverage of Apple's headers (API/{module}/)")
    print(f"  {'header':<26}{'total':>7}{'provided':>10}{'other type':>12}{'missing':>9}{'left out':>10}")
    totals = dict.fromkeys(statuses, 0)
    for header, items in by_header.items():
        counts = dict.fromkeys(statuses, 0)
        for item in items:
            counts[item.status] += 1
            totals[item.status] += 1
        provided = counts["provided"] + counts["left out, but provided"]
        print(f"  {header:<26}{len(items):>7}{provided:>10}{counts['other type']:>12}{counts['missing']:>9}"
              f"{counts['left out']:>10}")
    provided = totals["provided"] + totals["left out, but provided"]
    print(f"  {'total':<26}{len(declarations):>7}{provided:>10}{totals['other type']:>12}{totals['missing']:>9}"
          f"{totals['left out']:>10}")
    failures = [d for d in declarations if d.status in ("missing", "other type")]
    for declaration in declarations:
        status = declaration.status
        if status in ("missing", "other type") or (list_all and status != "provided"):
            detail = declaration.left_out if status == "left out" else "; ".join(declaration.errors)
            print(f"  {status:>10}: {declaration.header}:{declaration.number} {declaration.name} "
                  f"({declaration.type}) {detail}")
        elif status == "left out, but provided":
            print(f"  note: {declaration.header}:{declaration.number} {declaration.name} is provided now; "
                  "remove its 'left out' mark")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--module", default="all", help="Security, CommonCrypto or all (default)")
    parser.add_argument("--no-build", action="store_true", help="use the modules already built")
    parser.add_argument("--list", action="store_true", help="also list every left-out declaration")
    options = parser.parse_args()
    modules = sorted(m for m in os.listdir(API) if os.path.isdir(os.path.join(API, m))) \
        if options.module == "all" else [options.module]
    failed = 0
    for module in modules:
        if not os.path.isdir(os.path.join(API, module)):
            sys.exit(f"api-coverage: no declaration lists in API/{module}")
        if not options.no_build:
            subprocess.run(["swift", "build", "--target", module], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)
        declarations = read_lists(module)
        type_check(module, declarations)
        failed += len(report(module, declarations, options.list))
    if failed:
        print(f"api-coverage: {failed} declarations are missing or have another type than Apple's", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
