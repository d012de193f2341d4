#!/usr/bin/env python3
"""Scores a limbo-harness results file against an x509-limbo suite.

A testcase passes when its actual_result equals its expected_result; SKIPPED, HANG and missing ids do not pass.
Prints pass/total per namespace, the ids of wrongly accepted chains, and a last line `pass N/M (P%)`.
Usage: limbo-score.py SUITE.json RESULTS.json [--list-failures]
"""
import json
import sys
from collections import defaultdict


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    suite = json.load(open(argv[1], encoding="utf-8"))["testcases"]
    results = {r["id"]: r for r in json.load(open(argv[2], encoding="utf-8"))["results"]}
    per_namespace = defaultdict(lambda: [0, 0])
    failures, accepted_invalid = [], []
    for case in suite:
        namespace = case["id"].split("::", 1)[0]
        actual = results.get(case["id"], {}).get("actual_result", "MISSING")
        per_namespace[namespace][1] += 1
        if actual == case["expected_result"]:
            per_namespace[namespace][0] += 1
            continue
        failures.append((case["id"], case["expected_result"], actual, results.get(case["id"], {}).get("context")))
        if case["expected_result"] == "FAILURE" and actual == "SUCCESS":
            accepted_invalid.append(case["id"])
    for namespace in sorted(per_namespace):
        passed, total = per_namespace[namespace]
        print(f"{namespace:16} {passed}/{total}")
    if "--list-failures" in argv:
        for case_id, expected, actual, context in failures:
            print(f"FAIL {case_id}: expected {expected}, got {actual} ({context})")
    print(f"wrongly accepted: {len(accepted_invalid)}" + (f" ({', '.join(accepted_invalid)})" if accepted_invalid else ""))
    passed = sum(p for p, _ in per_namespace.values())
    total = sum(t for _, t in per_namespace.values())
    print(f"pass {passed}/{total} ({100.0 * passed / max(total, 1):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
