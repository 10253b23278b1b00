"""What the Python test scripts share: named checks that count passes and
failures, and the summary whose exit status ctest reads."""
import sys

results = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    """Counts one assertion; a failure prints its name and (the start of) the detail."""
    results["passed" if condition else "failed"] += 1
    if not condition:
        print(f"FAIL {name}: {str(detail)[:1500]}")
    return condition


def summary(label=""):
    """Prints the counts; returns the exit status (1 if anything failed)."""
    print(f"{label}{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0
