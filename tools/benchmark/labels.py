#!/usr/bin/env python3
"""The benchmark's labels: merges the contributors' files (labels.d/<group>.json)
into test_cases/benchmark/labels.json, and validates labels.json.

usage: labels.py merge      # labels.d/*.json -> labels.json (then validates it)
       labels.py validate   # exit 1 on any problem; prints the set's counts

Validation: every path and twin exists, twins name each other, `clean` is true
exactly when `expected` is empty, every check is a rule of rules/ (or
`proposed-*` in `proposed`), every line is inside its file, and a source names
a repository with a commit and path or an issue or pull request. The counts are
the ones issue 31 asks for (programs, repositories, clean share, distributed,
labels per check, bug ports).
"""
import collections
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCHMARK = os.path.join(ROOT, "test_cases", "benchmark")
LABELS = os.path.join(BENCHMARK, "labels.json")
RULES = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(ROOT, "rules", "*.md")))


def support_dir(group, path):
    """The stand-in headers' directory a program of `group` compiles with."""
    if path.startswith("ports/"):
        return "ports/ports_support"
    return f"programs/{group}_support"


def merge():
    programs = []
    for part in sorted(glob.glob(os.path.join(BENCHMARK, "labels.d", "*.json"))):
        with open(part) as f:
            document = json.load(f)
        group = document.get("group") or os.path.basename(part)[:-5]
        for program in document["programs"]:
            program = dict(program)
            program["group"] = group
            program["include_dirs"] = [support_dir(group, program["path"])]
            programs.append(program)
    programs.sort(key=lambda p: p["path"])
    with open(LABELS + ".tmp", "w") as f:
        json.dump({"programs": programs}, f, indent=1)
        f.write("\n")
    os.replace(LABELS + ".tmp", LABELS)
    return validate()


def problems_of(program, by_path):
    path = program.get("path", "")
    full = os.path.join(BENCHMARK, path)
    if not os.path.isfile(full):
        return [f"{path}: no such file"]
    with open(full, errors="replace") as f:
        lines = f.read().count("\n") + 1
    problems = []
    expected, proposed = program.get("expected", []), program.get("proposed", [])
    if program.get("clean") != (len(expected) == 0):
        problems.append(f"{path}: clean is {program.get('clean')} with {len(expected)} labels")
    for label in expected:
        if label.get("check") not in RULES:
            problems.append(f"{path}: unknown check {label.get('check')}")
    for label in proposed:
        if not str(label.get("check", "")).startswith("proposed-"):
            problems.append(f"{path}: proposed label {label.get('check')} is not proposed-*")
    for label in expected + proposed:
        for line in [label.get("line"), *label.get("alt_lines", [])]:
            if not isinstance(line, int) or not 1 <= line <= lines:
                problems.append(f"{path}: line {line} of {label.get('check')} is outside the file")
    source = program.get("source", {})
    if not source.get("repo") or not (source.get("commit") and source.get("path") or
                                      source.get("issue") or source.get("pull_request")):
        problems.append(f"{path}: source needs a repo with commit and path, or an issue or PR")
    if source.get("commit") and not re.fullmatch(r"[0-9a-f]{40}", source["commit"]):
        problems.append(f"{path}: source commit {source['commit']} is not 40 hex digits")
    if program.get("kind") == "bug-port":
        twin = program.get("twin")
        if twin and (twin not in by_path or by_path[twin].get("twin") != path):
            problems.append(f"{path}: twin {twin} is missing or does not name it back")
    for directory in program.get("include_dirs", []):
        if not os.path.isdir(os.path.join(BENCHMARK, directory)):
            problems.append(f"{path}: include directory {directory} does not exist")
    return problems


def validate():
    with open(LABELS) as f:
        programs = json.load(f)["programs"]
    by_path = {p["path"]: p for p in programs}
    problems = [problem for p in programs for problem in problems_of(p, by_path)]
    if len(by_path) != len(programs):
        problems.append("a path is labelled twice")
    trainers = [p for p in programs if p.get("kind") == "trainer"]
    ports = [p for p in programs if p.get("kind") == "bug-port"]
    repos = {p["source"]["repo"] for p in trainers}
    per_check = collections.Counter(l["check"] for p in programs for l in p.get("expected", []))
    clean = sum(1 for p in trainers if p["clean"])
    print(f"trainers: {len(trainers)} programs from {len(repos)} repositories, "
          f"{clean} clean ({100 * clean / max(1, len(trainers)):.0f}%), "
          f"{sum(1 for p in trainers if p.get('distributed'))} distributed")
    print(f"bug ports: {len(ports)} programs, "
          f"{len({p['source'].get('issue') or p['source'].get('pull_request') for p in ports})} "
          f"reports, {sum(1 for p in ports if p.get('twin'))} with a twin")
    print("labels per check: " + ", ".join(f"{c} {per_check.get(c, 0)}" for c in RULES))
    proposed = collections.Counter(l["check"] for p in programs for l in p.get("proposed", []))
    if proposed:
        print("proposed: " + ", ".join(f"{c} {n}" for c, n in sorted(proposed.items())))
    for problem in problems:
        print(f"labels: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "validate"
    sys.exit(merge() if command == "merge" else validate())
