#!/usr/bin/env python3
"""clang-tidy plugin parity: clang-tidy-19 with build/lib/libGradlintTidy.so
reports the same findings (file, line, column, check, message) and notes as
the gradlint CLI on every test case, example and fixture, and its --fix
writes the same files as `gradlint --fix` for the safe fix-its.

usage: tidy_parity.py <gradlint> <libGradlintTidy.so> <api model dir> <repository root>
                      [findings|fixes]   (both by default; CTest runs them as two tests)
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT, PLUGIN, API_MODEL, ROOT = sys.argv[1:5]
PARTS = sys.argv[5:] or ["findings", "fixes"]
CLANG_TIDY = shutil.which("clang-tidy-19") or "/usr/lib/llvm-19/bin/clang-tidy"
FLAGS = ["--", "-std=c++17", "-isystem", API_MODEL]
# Every case includes <torch/torch.h>: precompiled once, clang-tidy parses each
# case in a fraction of the time (the plugin sees the same AST).
PCH_DIR = tempfile.mkdtemp(prefix="gradlint-tidy-pch-")
PCH = os.path.join(PCH_DIR, "torch.pch")
CLANG = shutil.which("clang++-19") or "/usr/lib/llvm-19/bin/clang++"
if subprocess.run([CLANG, "-x", "c++-header", "-std=c++17", "-fpch-instantiate-templates",
                   "-isystem", API_MODEL, "-o", PCH, "-"], input="#include <torch/torch.h>\n",
                  text=True, capture_output=True).returncode == 0:
    FLAGS += ["-include-pch", PCH]
LINE = re.compile(r"^(.*?):(\d+):(\d+): (warning|error|note): (.*?)(?: \[([\w.,-]+)\])?$")


def tidy_findings(output):
    """{(file, line, col, check, message): [notes]} from clang-tidy's output."""
    findings, current = {}, None
    for line in output.splitlines():
        match = LINE.match(line)
        if not match:
            continue
        path, row, col, kind, message, check_id = match.groups()
        if kind == "note" and current is not None:
            findings[current].append((os.path.realpath(path), int(row), int(col), message))
        elif kind == "warning" and check_id and check_id.startswith("accum-"):
            current = (os.path.realpath(path), int(row), int(col), check_id, message)
            findings[current] = []
    return findings


def gradlint_findings(files):
    run = subprocess.run([GRADLINT, "--no-isolation", "-j2", "--format=json", *files],
                         capture_output=True, text=True)
    findings = {}
    for d in json.loads(run.stdout)["diagnostics"]:
        key = (os.path.realpath(d["file"]), d["line"], d["column"], d["check"], d["message"])
        notes = [(os.path.realpath(n["file"]), n["line"], n["column"], n["message"])
                 for n in d["notes"]]
        if d.get("fix") and not d["fix"]["safe"]:
            notes.append((key[0], key[1], key[2],
                          "unsafe fix (gradlint --fix --unsafe-fixes): " + d["fix"]["description"]))
        findings[key] = notes
    return findings


# A stride sample of each check's cases (GRADLINT_TIDY_STRIDE, default 3; 1
# for all), and every example. The plugin runs the same checks on the same AST
# as the CLI, which cases/<check> and header-parity run on every case; what
# this test adds is the plumbing (the AST clang-tidy builds, options, notes,
# fix-its as clang-tidy applies them), which every check's sample exercises:
# positive and negative cases, notes, safe and unsafe fixes.
STRIDE = int(os.environ.get("GRADLINT_TIDY_STRIDE", "3"))
sources = []
for folder in sorted(glob.glob(os.path.join(ROOT, "test_cases", "accum-*"))):
    sources += sorted(glob.glob(os.path.join(folder, "*.cpp")))[::STRIDE]
sources += sorted(glob.glob(os.path.join(ROOT, "examples", "*.cpp")))
print(f"{len(sources)} files: one case in {STRIDE} of each check and every example")

if "findings" in PARTS:
    listed = subprocess.run([CLANG_TIDY, f"-load={PLUGIN}", "-checks=-*,accum-*", "--list-checks"],
                            capture_output=True, text=True).stdout
    cli_checks = subprocess.run([GRADLINT, "--list-checks"], capture_output=True, text=True).stdout
    ids = lambda text: sorted(re.findall(r"\baccum-[\w-]+", text))
    check("clang-tidy lists the same checks as gradlint", ids(listed) == ids(cli_checks) != [],
          (ids(listed), ids(cli_checks)))

    # Another check beside ours still walks the whole unit: the plugin narrows the
    # traversal to the user's declarations only while no other check is enabled.
    with tempfile.TemporaryDirectory() as scratch:
        os.makedirs(os.path.join(scratch, "vendor"))
        with open(os.path.join(scratch, "vendor", "vendor.h"), "w") as header:
            header.write("namespace vendor_detail {}\nusing namespace vendor_detail;\n")
        with open(os.path.join(scratch, "main.cpp"), "w") as main_file:
            main_file.write("#include <vendor.h>\nint main() { return 0; }\n")
        beside = subprocess.run(
            [CLANG_TIDY, f"-load={PLUGIN}", "-checks=-*,accum-*,google-build-using-namespace",
             "--system-headers", "--header-filter=.*", os.path.join(scratch, "main.cpp"), "--",
             "-std=c++17", "-isystem", os.path.join(scratch, "vendor")],
            capture_output=True, text=True)
        check("another enabled check still sees declarations in system headers",
              "vendor.h:2:1: warning:" in beside.stdout and "[google-build-using-namespace]"
              in beside.stdout, beside.stdout[-800:] + beside.stderr[-800:])

    expected = gradlint_findings(sources)
    # Two clang-tidy processes, one per core, each on half of the files.
    halves = [sources[0::2], sources[1::2]]
    procs = [subprocess.Popen([CLANG_TIDY, f"-load={PLUGIN}", "-checks=-*,accum-*", "--quiet",
                               *half, *FLAGS], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for half in halves]
    outputs = [p.communicate() for p in procs]
    actual = {}
    for out, _ in outputs:
        actual.update(tidy_findings(out))
    check("the plugin loads and runs",
          all(p.returncode in (0, 1) for p in procs) and actual, [e[-800:] for _, e in outputs])
    check("findings: same count", len(actual) == len(expected), (len(actual), len(expected)))
    for key in sorted(set(expected) | set(actual)):
        where = f"{os.path.relpath(key[0], ROOT)}:{key[1]}:{key[2]} {key[3]}"
        check(f"{where}: reported by both", key in expected and key in actual,
              "only gradlint" if key in expected else "only clang-tidy")
        if key in expected and key in actual:
            check(f"{where}: same notes", expected[key] == actual[key], (expected[key], actual[key]))

if "fixes" in PARTS:
    # clang-tidy --fix applies the safe fix-its exactly as gradlint --fix does.
    with tempfile.TemporaryDirectory() as scratch:
        pairs, source_of = [], {}
        # The buggy examples, the plugin's own fix cases, and every test case whose
        # safe fix is pinned (CHECK-FIXES): the lines around each fix vary there.
        fix_sources = sorted(glob.glob(os.path.join(ROOT, "examples", "*_buggy.cpp")))
        fix_sources += sorted(glob.glob(os.path.join(ROOT, "test_cases", "tidy", "fix_*.cpp")))
        fix_sources += [s for s in sources if "// CHECK-FIXES:" in open(s).read()]
        check("the sample includes fixed cases of most checks",
              len({os.path.basename(os.path.dirname(s)) for s in fix_sources
                   if "/test_cases/accum-" in s}) >= 10, fix_sources)
        for source in fix_sources:
            name = os.path.relpath(source, ROOT).replace(os.sep, "__")
            source_of[name] = source
            for tool in ("tidy", "cli"):
                os.makedirs(os.path.join(scratch, tool), exist_ok=True)
                shutil.copy(source, os.path.join(scratch, tool, name))
            pairs.append(name)
        subprocess.run([GRADLINT, "--fix", *[os.path.join(scratch, "cli", n) for n in pairs]],
                       capture_output=True, text=True)
        # Two clang-tidy processes again, each fixing its own files.
        fixing = [subprocess.Popen([CLANG_TIDY, f"-load={PLUGIN}", "-checks=-*,accum-*", "--quiet",
                                    "--fix", *[os.path.join(scratch, "tidy", n) for n in half],
                                    *FLAGS], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True) for half in (pairs[0::2], pairs[1::2])]
        fix_stderr = "".join(p.communicate()[1] for p in fixing)
        for name in pairs:
            with open(os.path.join(scratch, "tidy", name)) as a, open(os.path.join(scratch, "cli", name)) as b:
                tidy_text, cli_text = a.read(), b.read()
            with open(source_of[name]) as original:
                changed = tidy_text != original.read()
            check(f"{name}: clang-tidy --fix changes the file", changed, fix_stderr[-400:])
            check(f"{name}: clang-tidy --fix gives gradlint --fix's result", tidy_text == cli_text)

shutil.rmtree(PCH_DIR, ignore_errors=True)
sys.exit(summary())
