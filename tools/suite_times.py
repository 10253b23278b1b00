#!/usr/bin/env python3
"""Prints the tests of a ctest run and their times as a Markdown table, slowest
first, with the total: what docs/testing.md's "Suites and their times" shows.

usage: suite_times.py <ctest output file> [<second ctest output file>]

With two files (before, after), both columns and their ratio. The times are
ctest's wall times under `-j2`: two tests share the two cores, so a test's
time includes waiting for the other.
"""
import re
import sys

LINE = re.compile(r"Test\s+#\d+:\s+(\S+)\s+\.*\s*(?:\*\*\*)?(\w+(?: \w+)?)\s+([\d.]+) sec")


def times(path):
    found = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            match = LINE.search(line)
            if match:
                found[match.group(1)] = (float(match.group(3)), match.group(2))
    return found


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    runs = [times(path) for path in sys.argv[1:]]
    names = sorted(set().union(*runs), key=lambda n: -max(r.get(n, (0, ""))[0] for r in runs))
    if len(runs) == 1:
        print("| test | seconds | result |\n|---|---:|---|")
        for name in names:
            seconds, result = runs[0][name]
            print(f"| `{name}` | {seconds:.0f} | {result} |")
        print(f"| total | {sum(t for t, _ in runs[0].values()):.0f} | |")
        return
    print("| test | before (s) | after (s) | after / before |\n|---|---:|---:|---:|")
    for name in names:
        before, after = (r.get(name, (None, ""))[0] for r in runs)
        ratio = f"{after / before:.2f}" if before and after is not None else ""
        show = lambda t: "" if t is None else f"{t:.0f}"  # noqa: E731
        print(f"| `{name}` | {show(before)} | {show(after)} | {ratio} |")
    totals = [sum(t for t, _ in r.values()) for r in runs]
    print(f"| total | {totals[0]:.0f} | {totals[1]:.0f} | {totals[1] / totals[0]:.2f} |")


if __name__ == "__main__":
    main()
