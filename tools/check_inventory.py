#!/usr/bin/env python3
"""Every check is everywhere it has to be, and nothing names a check that is not.

A check is its source file with its registration line (checks/<Name>Check.cpp),
its rule document (rules/<id>.md), its row in README.md's "## Checks" table,
its confirmation plan (`ConfirmationPlan confirmation() const override` in
the source: what --confirm runs for it), its test cases (test_cases/<id>/,
at least one positive_*.cpp and one negative_*.cpp) and its fixture (fixtures/<name>/ with buggy.cpp, fixed.cpp
and a fixture.json whose "check" is the id). This compares the ids registered
in the gradlint binary (`gradlint --list-checks --checks='*'`) with each of
those and prints a table of what disagrees.

usage: check_inventory.py <gradlint> <repository root>
"""
import glob
import json
import os
import re
import subprocess
import sys

REGISTRATION = re.compile(r'^GRADLINT_REGISTER_CHECK\((\w+),\s*"([^"]+)",\s*(-?\d+)\)', re.M)
CONFIRMATION_PLAN = re.compile(r"ConfirmationPlan\s+confirmation\(\)\s+const\s+override")
README_ROW = re.compile(r"^\|\s*\[([^\]]+)\]\(([^)]+)\)\s*\|")


def registered(gradlint):
    listed = subprocess.run([gradlint, "--list-checks", "--checks=*"], capture_output=True,
                            text=True, check=True).stdout
    return [line.split()[0] for line in listed.splitlines()[1:] if line.strip()]


def sources(root, problems):
    """{id: file} from the registration lines of checks/*Check.cpp."""
    found = {}
    orders = {}
    for path in sorted(glob.glob(os.path.join(root, "checks", "?*Check.cpp"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        lines = REGISTRATION.findall(text)
        name = os.path.relpath(path, root)
        if len(lines) != 1:
            problems.append(f"{name}: {len(lines)} registration lines, expected one")
        if not CONFIRMATION_PLAN.search(text):
            problems.append(f"{name}: declares no confirmation plan "
                            "(ConfirmationPlan confirmation() const override)")
        for check_class, check_id, order in lines:
            if check_class + ".cpp" != os.path.basename(path):
                problems.append(f"{name}: registers class {check_class}, expected the file's name")
            if check_id in found:
                problems.append(f"{check_id}: registered in {found[check_id]} and {name}")
            if order in orders:
                problems.append(f"{name}: order {order} is also {orders[order]}'s")
            found[check_id], orders[order] = name, check_id
    return found


def rule_docs(root, problems):
    found = {}
    for path in sorted(glob.glob(os.path.join(root, "rules", "*.md"))):
        name = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            head = re.match(r"---\n(.*?)\n---\n", f.read(), re.S)
        front = re.search(r"^id: (.*)$", head.group(1), re.M) if head else None
        doc_id = os.path.basename(path)[:-3]
        if not front or front.group(1).strip() != doc_id:
            problems.append(f"{name}: front matter 'id:' is not {doc_id}")
        found[doc_id] = name
    return found


def readme_rows(root, problems):
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = re.search(r"^## Checks\n(.*?)(?=^## )", text, re.M | re.S)
    if not section:
        problems.append("README.md: no '## Checks' section")
        return {}
    found = {}
    for line in section.group(1).splitlines():
        row = README_ROW.match(line)
        if not row:
            continue
        check_id, link = row.groups()
        if link != f"rules/{check_id}.md":
            problems.append(f"README.md: the row of {check_id} links to {link}, not rules/{check_id}.md")
        if check_id in found:
            problems.append(f"README.md: two rows for {check_id}")
        found[check_id] = "README.md"
    return found


def test_case_dirs(root, problems):
    found = {}
    for path in sorted(glob.glob(os.path.join(root, "test_cases", "accum-*"))):
        if not os.path.isdir(path):
            continue
        name = os.path.relpath(path, root)
        for kind in ("positive", "negative"):
            if not glob.glob(os.path.join(path, f"{kind}_*.cpp")):
                problems.append(f"{name}: no {kind}_*.cpp case")
        found[os.path.basename(path)] = name
    return found


def fixtures(root, problems):
    found = {}
    for path in sorted(glob.glob(os.path.join(root, "fixtures", "*", "fixture.json"))):
        directory = os.path.dirname(path)
        name = os.path.relpath(directory, root)
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
        check_id = spec.get("check")
        if not check_id:
            continue  # a seed claim's fixture
        for program in ("buggy.cpp", "fixed.cpp"):
            if not os.path.isfile(os.path.join(directory, program)):
                problems.append(f"{name}: no {program}")
        if check_id not in spec.get("expected_findings", {}).get("buggy", []):
            problems.append(f"{name}: expected_findings.buggy does not list {check_id}")
        if check_id in found:
            problems.append(f"{check_id}: two fixtures, {found[check_id]} and {name}")
        found[check_id] = name
    return found


def main():
    gradlint, root = sys.argv[1], sys.argv[2]
    problems = []
    columns = [
        ("registered", {i: "gradlint" for i in registered(gradlint)}),
        ("source", sources(root, problems)),
        ("rule doc", rule_docs(root, problems)),
        ("README row", readme_rows(root, problems)),
        ("test cases", test_case_dirs(root, problems)),
        ("fixture", fixtures(root, problems)),
    ]
    ids = sorted(set().union(*(found for _, found in columns)))
    disagree = [i for i in ids if not all(i in found for _, found in columns)]
    width = max([len(i) for i in ids] + [5])
    print((f"{'check':<{width}}  " + "  ".join(f"{title:<10}" for title, _ in columns)).rstrip())
    for i in ids:
        print((f"{i:<{width}}  " + "  ".join(f"{'yes' if i in found else 'MISSING':<10}"
                                            for _, found in columns)).rstrip())
    for i in disagree:
        missing = [title for title, found in columns if i not in found]
        problems.append(f"{i}: no {', no '.join(missing)}")
    for problem in problems:
        print(f"FAIL {problem}")
    print(f"{len(ids)} checks, {len(problems)} disagreement(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
