#!/usr/bin/env python3
"""Counts public and package declarations with and without a `///` doc comment.

A declaration is a line whose first keywords (after attributes such as `@inlinable` or `@discardableResult`) include
the access modifier `public`, `open` or `package` and declare something (func, init, var, let, subscript, struct,
class, enum, protocol, typealias, actor, case, associatedtype). Extensions are not counted (DocC documents their
members). A declaration is documented when the line before it, skipping attribute lines, is a `///` comment or the end
of a `/** */` block.

Usage: doc-coverage.py DIR... [--list]   (prints one line per directory and a total; --list names the undocumented)
"""
import os
import re
import sys

ACCESS = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:[\w]+\s+)*?(public|open|package)\b(?!\()")
DECLARES = re.compile(
    r"\b(func|init[?!]?|var|let|subscript|struct|class|enum|protocol|typealias|actor|case|associatedtype)\b")
ATTRIBUTE_ONLY = re.compile(r"^\s*@[\w.]+(\([^)]*\))?\s*$")


def declarations(path):
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("//") or stripped.startswith("*"):
            continue
        match = ACCESS.match(line)
        if not match or "extension " in line.split("{")[0] or "import " in line:
            continue
        head = line[match.end():].split("{")[0].split("=")[0]
        if not DECLARES.search(head):
            continue
        previous = number - 1
        while previous >= 0 and (ATTRIBUTE_ONLY.match(lines[previous]) or lines[previous].strip() == ""):
            if lines[previous].strip() == "":
                break
            previous -= 1
        before = lines[previous].strip() if previous >= 0 else ""
        documented = before.startswith("///") or before.endswith("*/")
        yield number + 1, stripped, documented


def main(argv):
    directories = [a for a in argv[1:] if not a.startswith("--")]
    if not directories:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    total = documented_total = 0
    for directory in directories:
        count = documented = 0
        missing = []
        for root, _, files in os.walk(directory):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(root, name)
                for number, text, has_doc in declarations(path):
                    count += 1
                    if has_doc:
                        documented += 1
                    else:
                        missing.append(f"{path}:{number}: {text}")
        total += count
        documented_total += documented
        share = 100.0 * documented / count if count else 100.0
        print(f"{directory}: {documented}/{count} documented ({share:.0f}%)")
        if "--list" in argv:
            for item in missing:
                print("  " + item)
    if len(directories) > 1:
        share = 100.0 * documented_total / total if total else 100.0
        print(f"total: {documented_total}/{total} documented ({share:.0f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
