"""What the Python test scripts share: named checks that count passes and
failures, and the summary whose exit status ctest reads."""
import os
import sys

results = {"passed": 0, "failed": 0}
# tools/robustness/tally.py sets this: every check's outcome and name, one per line.
TALLY_FILE = os.environ.get("GRADLINT_TALLY_FILE")


def check(name, condition, detail=""):
    """Counts one assertion; a failure prints its name and (the start of) the detail."""
    results["passed" if condition else "failed"] += 1
    if TALLY_FILE:
        with open(TALLY_FILE, "a", encoding="utf-8") as tally:
            tally.write(f"{'pass' if condition else 'fail'}\t{' '.join(str(name).split())}\n")
    if not condition:
        print(f"FAIL {name}: {str(detail)[:1500]}")
    return condition


def summary(label=""):
    """Prints the counts; returns the exit status (1 if anything failed)."""
    print(f"{label}{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0
