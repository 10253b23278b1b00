#!/usr/bin/env python3
"""Configuration files: .gradlint.yaml discovery, --config-file, Checks,
WarningsAsErrors, InheritParentConfig, the four CheckOptions (global and per
check), --dump-config, errors naming file, line and column, and the same
options through the clang-tidy plugin.

usage: config_tests.py <gradlint> <source-root> [<clang-tidy> <libGradlintTidy.so>]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
CLANG_TIDY = sys.argv[3] if len(sys.argv) > 4 else None
PLUGIN = sys.argv[4] if len(sys.argv) > 4 else None
INPUTS = os.path.join(ROOT, "test_cases", "config", "inputs")
MNIST = os.path.join(ROOT, "examples", "mnist_accumulation_buggy.cpp")

# Each input needs one option before gradlint sees its bug.
CASES = {
    "sync": ("GradientSyncFunctions", "dist::average_gradients", "accum-unguarded-grad-sync", True),
    "wrapper": ("OptimizerWrappers", "ShardedOptimizer", "accum-misplaced-zero-grad", True),
    "names": ("AccumulationStepNames", "micro_batches", "accum-lr-divided-by-steps", True),
    "world": ("WorldSizeNames", "num_replicas", "accum-double-world-size-scaling", True),
}


def run(*args, cwd=None):
    return subprocess.run([GRADLINT, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def findings(*args, cwd=None):
    result = run("--format=json", *args, cwd=cwd)
    try:
        document = json.loads(result.stdout)
    except json.JSONDecodeError:
        return result, [], []
    return result, document["diagnostics"], document["errors"]


def checks_of(diagnostics):
    return sorted(d["check"] for d in diagnostics)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def copy_input(tmp, case, where):
    target = os.path.join(tmp, where, "train.cpp")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copy(os.path.join(INPUTS, case, "train.cpp"), target)
    return target


def test_options_change_findings(tmp):
    for case, (option, value, check_id, adds) in CASES.items():
        base = os.path.join(tmp, "options", case)
        source = copy_input(base, case, "src/deep")
        _, without, _ = findings(source)
        write(os.path.join(base, ".gradlint.yaml"), f"CheckOptions:\n  {option}: {value}\n")
        result, with_config, errors = findings(source)
        has_without = check_id in checks_of(without)
        has_with = check_id in checks_of(with_config)
        check(f"{case}: without {option}", has_without != adds, checks_of(without))
        check(f"{case}: {option} found two directories up", has_with == adds,
              (checks_of(with_config), errors, result.stderr))
        # The list form and a per-check key of the check that reports.
        write(os.path.join(base, ".gradlint.yaml"),
              f"CheckOptions:\n  {check_id}.{option}:\n    - {value}\n")
        _, local, _ = findings(source)
        check(f"{case}: per-check key", (check_id in checks_of(local)) == adds, checks_of(local))
        # A key local to another check does not reach this one.
        other = "accum-per-micro-batch-clip"
        write(os.path.join(base, ".gradlint.yaml"), f"CheckOptions:\n  {other}.{option}: {value}\n")
        _, elsewhere, _ = findings(source)
        check(f"{case}: other check's key has no effect",
              (check_id in checks_of(elsewhere)) == has_without, checks_of(elsewhere))


def test_checks_and_nearest_config(tmp):
    base = os.path.join(tmp, "checks")
    source = os.path.join(base, "a", "b", "mnist.cpp")
    os.makedirs(os.path.dirname(source))
    shutil.copy(MNIST, source)
    _, everything, _ = findings(source)
    check("mnist example has three checks", len(set(checks_of(everything))) == 3,
          checks_of(everything))
    write(os.path.join(base, ".gradlint.yaml"), "Checks: '-*,accum-missing-loss-division'\n")
    _, only, _ = findings(source)
    check("Checks string selects one check", checks_of(only) == ["accum-missing-loss-division"],
          checks_of(only))
    write(os.path.join(base, "a", ".gradlint.yml"),
          "Checks:\n  - '-accum-per-micro-batch-clip'\n")
    _, nearest, _ = findings(source)
    check("nearest file wins, list form, .yml",
          "accum-per-micro-batch-clip" not in checks_of(nearest) and
          "accum-misplaced-zero-grad" in checks_of(nearest), checks_of(nearest))
    write(os.path.join(base, "a", ".gradlint.yml"),
          "InheritParentConfig: true\nChecks: 'accum-per-micro-batch-clip'\n")
    _, inherited, _ = findings(source)
    check("InheritParentConfig applies the parent's Checks first",
          checks_of(inherited) == ["accum-missing-loss-division", "accum-per-micro-batch-clip"],
          checks_of(inherited))
    _, cli, _ = findings("--checks=accum-misplaced-zero-grad", source)
    check("--checks applies after the files",
          "accum-misplaced-zero-grad" in checks_of(cli) and len(checks_of(cli)) == 3,
          checks_of(cli))
    dump = run("--dump-config", source)
    check("--dump-config names both files, nearest first",
          dump.returncode == 0 and dump.stdout.index(".gradlint.yml") <
          dump.stdout.index(".gradlint.yaml"), dump.stdout + dump.stderr)
    listed = run("--list-checks", cwd=os.path.join(base, "a", "b"))
    check("--list-checks uses the current directory's configuration",
          "accum-misplaced-zero-grad" not in listed.stdout and
          "accum-per-micro-batch-clip" in listed.stdout, listed.stdout)
    # --config-file replaces discovery.
    explicit = os.path.join(tmp, "explicit.yaml")
    write(explicit, "Checks: '-*,accum-misplaced-zero-grad'\n")
    _, chosen, _ = findings("--config-file", explicit, source)
    check("--config-file replaces discovery", checks_of(chosen) == ["accum-misplaced-zero-grad"],
          checks_of(chosen))


def test_warnings_as_errors(tmp):
    base = os.path.join(tmp, "werror")
    source = os.path.join(base, "mnist.cpp")
    os.makedirs(base)
    shutil.copy(MNIST, source)
    write(os.path.join(base, ".gradlint.yaml"), "WarningsAsErrors: 'accum-missing-*'\n")
    result, diagnostics, _ = findings(source)
    severities = {d["check"]: d["severity"] for d in diagnostics}
    check("WarningsAsErrors raises the matching check",
          severities.get("accum-missing-loss-division") == "error", severities)
    check("other checks stay warnings", severities.get("accum-misplaced-zero-grad") == "warning",
          severities)
    check("findings still exit 1", result.returncode == 1, result.returncode)
    text = run(source).stdout
    check("text says error:", ": error: " in text and "[accum-missing-loss-division]" in text)
    sarif = json.loads(run("--format=sarif", source).stdout)
    levels = {r["ruleId"]: r["level"] for r in sarif["runs"][0]["results"]}
    check("SARIF level error", levels.get("accum-missing-loss-division") == "error", levels)
    github = run("--format=github", source).stdout
    check("GitHub ::error", any(l.startswith("::error ") and "accum-missing-loss-division" in l
                                for l in github.splitlines()), github)
    _, cli, _ = findings("--warnings-as-errors=accum-misplaced-zero-grad", source)
    raised = sorted(d["check"] for d in cli if d["severity"] == "error")
    check("--warnings-as-errors adds to the file's list",
          raised == ["accum-misplaced-zero-grad", "accum-missing-loss-division"], raised)


BAD_CONFIGS = [
    ("unknown key", "Checks: 'accum-*'\nChekcs: '-*'\n", 2, 1, "unknown key 'Chekcs'"),
    ("YAML syntax", "Checks: 'accum-*'\nCheckOptions: {GradientSyncFunctions: [a, b}\n", 2, None,
     "invalid YAML"),
    ("unknown option", "CheckOptions:\n  SyncFunctions: a\n", 2, 3, "unknown option 'SyncFunctions'"),
    ("unknown check in option", "CheckOptions:\n  accum-nope.WorldSizeNames: w\n", 2, 3,
     "unknown check 'accum-nope'"),
    ("glob matching nothing", "Checks: '-*,accum-missing-los-division'\n", 1, 9,
     "unknown check 'accum-missing-los-division'"),
    ("wrong type", "CheckOptions:\n  - GradientSyncFunctions\n", 2, 3, "CheckOptions must be a mapping"),
    ("bad boolean", "InheritParentConfig: maybe\n", 1, 22, "InheritParentConfig must be true or false"),
    ("duplicate key", "Checks: 'accum-*'\nChecks: '-*'\n", 2, 1, "duplicate key 'Checks'"),
    ("not a mapping", "- accum-*\n", 1, 1, "expected a mapping"),
    ("nested list", "WarningsAsErrors: [[accum-*]]\n", 1, None, "must be a string or a list of strings"),
]


def test_per_file_ignores(tmp):
    base = os.path.join(tmp, "per-file")
    paths = {where: os.path.join(base, where) for where in
             ("src/train.cpp", "src/tests/train_test.cpp", "third_party/lib/loop.cpp",
              "tools/bench.cpp")}
    for path in paths.values():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copy(MNIST, path)
    write(os.path.join(base, ".gradlint.yaml"), """PerFileIgnores:
  'src/tests/**': accum-misplaced-zero-grad
  'third_party/*': '*'
  'bench.cpp': [accum-per-micro-batch-clip, accum-missing-loss-*]
""")
    _, all_findings, errors = findings(*paths.values())
    by_file = {where: checks_of([d for d in all_findings if d["file"] == path])
               for where, path in paths.items()}
    three = ["accum-misplaced-zero-grad", "accum-missing-loss-division", "accum-per-micro-batch-clip"]
    check("PerFileIgnores: a file no pattern matches keeps every finding",
          by_file["src/train.cpp"] == three, (by_file, errors))
    check("PerFileIgnores: 'src/tests/**' turns one check off below it",
          by_file["src/tests/train_test.cpp"] == three[1:], by_file)
    check("PerFileIgnores: '*' turns every check off ('*' crosses '/')",
          by_file["third_party/lib/loop.cpp"] == [], by_file)
    check("PerFileIgnores: a pattern without '/' matches the file name, globs in the list",
          by_file["tools/bench.cpp"] == ["accum-misplaced-zero-grad"], by_file)
    _, cli, _ = findings("--checks=accum-*", paths["src/tests/train_test.cpp"])
    check("PerFileIgnores: still off after --checks", checks_of(cli) == three[1:], checks_of(cli))
    dump = run("--dump-config", paths["src/tests/train_test.cpp"])
    check("PerFileIgnores: --dump-config shows the file's checks without the ignored one",
          "accum-misplaced-zero-grad" not in dump.stdout.split("Checks:")[1].splitlines()[0],
          dump.stdout)
    # Patterns are relative to the directory of the file that says them.
    write(os.path.join(base, "src", ".gradlint.yaml"),
          "InheritParentConfig: true\nPerFileIgnores:\n  'train.cpp': accum-per-micro-batch-clip\n")
    _, nested, _ = findings(paths["src/train.cpp"])
    check("PerFileIgnores: a nested file's patterns, with the parent's",
          checks_of(nested) == three[:2], checks_of(nested))
    for text, phrase in (("PerFileIgnores: [a]\n", "mapping of path globs"),
                         ("PerFileIgnores:\n  'src/[': '*'\n", "invalid path glob"),
                         ("PerFileIgnores:\n  'src/*': accum-no-such-check\n", "accum-no-such-check"),
                         ("PerFileIgnores:\n  'src/*': '-accum-*'\n", "without '-'")):
        write(os.path.join(base, "src", ".gradlint.yaml"), text)
        result = run(paths["src/train.cpp"])
        check(f"PerFileIgnores: bad entry ({phrase}) is a one-line error, exit 2",
              result.returncode == 2 and phrase in result.stderr and
              len([l for l in result.stderr.splitlines() if "error:" in l]) == 1, result.stderr)


def test_bad_configs(tmp):
    good_dir = os.path.join(tmp, "good")
    good = os.path.join(good_dir, "train.cpp")  # findings without any configuration
    os.makedirs(good_dir)
    shutil.copy(MNIST, good)
    for name, text, line, column, phrase in BAD_CONFIGS:
        base = os.path.join(tmp, "bad", name.replace(" ", "_"))
        source = os.path.join(base, "mnist.cpp")
        os.makedirs(base)
        shutil.copy(MNIST, source)
        config = os.path.join(base, ".gradlint.yaml")
        write(config, text)
        result = run(source, good)
        lines = [l for l in result.stderr.splitlines() if ": error: " in l]
        where = f"{config}:{line}:" + (f"{column}:" if column else "")
        check(f"bad config ({name}): exit 2", result.returncode == 2, result.returncode)
        check(f"bad config ({name}): one line naming {where}",
              len(lines) == 1 and lines[0].startswith(where) and phrase in lines[0],
              result.stderr)
        check(f"bad config ({name}): other file still analysed",
              "names/train.cpp" not in result.stdout and "train.cpp" in result.stdout and
              "mnist.cpp" not in result.stdout, result.stdout)
    # A directory where the file should be, and a --config-file that is missing.
    base = os.path.join(tmp, "bad", "directory")
    os.makedirs(os.path.join(base, ".gradlint.yaml"))
    shutil.copy(MNIST, os.path.join(base, "mnist.cpp"))
    result = run(os.path.join(base, "mnist.cpp"))
    check("config that is a directory: one-line error, exit 2",
          result.returncode == 2 and "is a directory" in result.stderr and
          len(result.stderr.strip().splitlines()) == 1, result.stderr)
    result = run("--config-file", os.path.join(tmp, "missing.yaml"), good)
    check("missing --config-file: exit 2", result.returncode == 2 and "missing.yaml" in result.stderr,
          result.stderr)
    empty_dir = os.path.join(tmp, "empty")
    source = os.path.join(empty_dir, "train.cpp")
    os.makedirs(empty_dir)
    shutil.copy(MNIST, source)
    write(os.path.join(empty_dir, ".gradlint.yaml"), "# nothing configured yet\n")
    result = run(source)
    check("an empty configuration file is valid", result.returncode == 1 and not result.stderr.count(
        "error:"), result.stderr)
    # The error also reaches machine-readable output with its line.
    base = os.path.join(tmp, "bad", "unknown_key")
    _, _, errors = findings(os.path.join(base, "mnist.cpp"))
    check("JSON error carries line and column",
          len(errors) == 1 and errors[0].get("line") == 2 and errors[0].get("column") == 1, errors)


def test_clang_tidy_plugin(tmp):
    if not (CLANG_TIDY and PLUGIN and os.path.exists(PLUGIN)):
        print("note: clang-tidy plugin not built; plugin option test skipped")
        return
    api_model = os.path.join(ROOT, "api_model")
    for case, (option, value, check_id, adds) in CASES.items():
        source = copy_input(os.path.join(tmp, "tidy"), case, case)
        outputs = []
        for options in ("{}", "{%s: '%s'}" % (option, value)):
            config = "{Checks: '-*,accum-*', CheckOptions: %s}" % options
            result = subprocess.run(
                [CLANG_TIDY, f"-load={PLUGIN}", f"-config={config}", source, "--",
                 "-std=c++17", f"-isystem{api_model}"],
                capture_output=True, text=True, timeout=300)
            outputs.append(f"[{check_id}]" in result.stdout)
        check(f"clang-tidy plugin reads {option}", outputs == [not adds, adds], outputs)


def main():
    tmp = tempfile.mkdtemp(prefix="gradlint-config-")
    try:
        test_options_change_findings(tmp)
        test_checks_and_nearest_config(tmp)
        test_warnings_as_errors(tmp)
        test_per_file_ignores(tmp)
        test_bad_configs(tmp)
        test_clang_tidy_plugin(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary("config: ")


if __name__ == "__main__":
    sys.exit(main())
