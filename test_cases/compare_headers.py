#!/usr/bin/env python3
"""Header parity: every test case must give the same findings with Debian's
real LibTorch headers as with the bundled LibTorch API model.

usage: compare_headers.py <gradlint> <real-headers.pch> <case.cpp>...
"""
import concurrent.futures
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from check_gradlint import compiler_args  # noqa: E402


def findings(gradlint, source, headers, pch):
    run = subprocess.run([gradlint, "--format=json", source, "--"] + compiler_args(headers, pch),
                         capture_output=True, text=True)
    try:
        document = json.loads(run.stdout)
    except json.JSONDecodeError:
        return None, f"no JSON output (exit {run.returncode}): {run.stderr.strip()}"
    if document["errors"]:
        return None, "; ".join(e["message"] for e in document["errors"])
    return sorted((d["check"], d["line"], d["column"], d["message"])
                  for d in document["diagnostics"]), None


def compare(gradlint, pch, source):
    model, model_error = findings(gradlint, source, "model", None)
    real, real_error = findings(gradlint, source, "real", pch)
    if model_error or real_error:
        return f"{source}: model: {model_error or 'ok'}; real headers: {real_error or 'ok'}"
    if model != real:
        only_model = [f for f in model if f not in real]
        only_real = [f for f in real if f not in model]
        return f"{source}: only with the model: {only_model}; only with real headers: {only_real}"
    return None


def main():
    gradlint, pch, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        problems = [p for p in pool.map(lambda c: compare(gradlint, pch, c), cases) if p]
    for problem in problems:
        print("MISMATCH", problem)
    print(f"{len(cases) - len(problems)} passed, {len(problems)} failed")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
