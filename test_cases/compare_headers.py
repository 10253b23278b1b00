#!/usr/bin/env python3
"""Header parity: every test case must give the same findings with Debian's
real LibTorch headers as with the bundled LibTorch API model.

All cases are analysed in one gradlint run per header set (--no-isolation, no
result cache): the real headers' PCH is loaded once per case, not once per
process.

usage: compare_headers.py <gradlint> <real-headers.pch> <case.cpp>...
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from check_gradlint import compiler_args  # noqa: E402


def findings(gradlint, sources, headers, pch, jobs):
    """({source: sorted findings}, {source: error}) from one run on all sources."""
    run = subprocess.run([gradlint, "--no-isolation", "--no-result-cache", f"-j{jobs}",
                          "--format=json", *sources, "--"] + compiler_args(headers, pch),
                         capture_output=True, text=True)
    try:
        document = json.loads(run.stdout)
    except json.JSONDecodeError:
        sys.exit(f"FAIL: no JSON output with the {headers} headers (exit {run.returncode}): "
                 f"{run.stderr.strip()[-2000:]}")
    found = {source: [] for source in sources}
    errors = {}
    for error in document["errors"]:
        named = next((s for s in sources if error["file"].startswith(s)), None)
        if named is None:
            sys.exit(f"FAIL: an error about no case: {error}")
        errors[named] = "; ".join(filter(None, [errors.get(named), error["message"]]))
    for d in document["diagnostics"]:
        found[d["file"]].append((d["check"], d["line"], d["column"], d["message"]))
    return {source: sorted(items) for source, items in found.items()}, errors


def main():
    gradlint, pch, cases = sys.argv[1], sys.argv[2], [os.path.abspath(c) for c in sys.argv[3:]]
    jobs = os.cpu_count() or 2
    model, model_errors = findings(gradlint, cases, "model", None, jobs)
    real, real_errors = findings(gradlint, cases, "real", pch, jobs)
    problems = []
    for source in cases:
        if source in model_errors or source in real_errors:
            problems.append(f"{source}: model: {model_errors.get(source, 'ok')}; "
                            f"real headers: {real_errors.get(source, 'ok')}")
        elif model[source] != real[source]:
            only_model = [f for f in model[source] if f not in real[source]]
            only_real = [f for f in real[source] if f not in model[source]]
            problems.append(f"{source}: only with the model: {only_model}; "
                            f"only with real headers: {only_real}")
    for problem in problems:
        print("MISMATCH", problem)
    print(f"{len(cases) - len(problems)} passed, {len(problems)} failed")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
