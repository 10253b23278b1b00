#!/usr/bin/env python3
"""Writes the skeleton of a new check (like clang-tidy's add_new_check.py).

    tools/new_check.py accum-foo-bar

creates, for the id accum-foo-bar:

    checks/FooBarCheck.cpp                 the check: reads the TrainingLoop, reports
                                           nothing yet; its registration line takes
                                           the next free order number
    rules/accum-foo-bar.md                 the rule document, every section a placeholder
    test_cases/accum-foo-bar/positive_basic.cpp, negative_basic.cpp
                                           lit cases that fail until they are written
    fixtures/foo-bar/{buggy,fixed}.cpp, fixture.json
                                           the fixture pair (a correct loop in both
                                           until the bug is written into buggy.cpp)

and adds the check's row to README.md's "## Checks" table and a row to
fixtures/README.md's fixture table. Nothing else needs an edit: CMake globs
checks/?*Check.cpp, rules/*.md, test_cases/accum-*/ and fixtures/*/fixture.json.

An id that is malformed or exists already is refused (exit status 2).
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ID = re.compile(r"^accum(-[a-z][a-z0-9]*)+$")
REGISTRATION = re.compile(r'^GRADLINT_REGISTER_CHECK\((\w+),\s*"([^"]+)",\s*(-?\d+)\)', re.M)

CHECK_SOURCE = """\
#include "checks/Check.h"

namespace gradlint {{

namespace {{

/// {id}: TODO: what the check finds, in one sentence (as in rules/{id}.md).
class {cls} : public Check {{
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  // What --confirm runs for this check's findings (checks/ConfirmationPlan.h).
  // TODO: the default runs windows of N against the large-batch reference;
  // set the run, the program-level fix and the figures the check's effect needs.
  ConfirmationPlan confirmation() const override {{
    ConfirmationPlan plan;
    plan.run = ConfirmationPlan::Run::Windows;
    return plan;
  }}
}};

}} // namespace

void {cls}::check(const TrainingLoop &loop, CheckContext &context) {{
  // Like the other checks, only loops with an accumulation window of N > 1
  // micro-batches that step() in the window's boundary branch.
  if (!loop.hasWindow() || !loop.boundaryStep())
    return;
  for (const TrainingEvent &event : loop.events) {{
    // TODO: report the events that have the bug (model/TrainingLoopModel.h
    // describes them; checks/PerMicroBatchClipCheck.cpp is a small check):
    //   Finding result = finding(loop.reportLocation(event), "... of an accumulation window of " +
    //                                                             describeSteps(loop) + ...);
    //   result.notes.push_back(windowNote(loop, context));
    //   context.report(std::move(result));
    (void)event;
  }}
  (void)context;
}}

GRADLINT_REGISTER_CHECK({cls}, "{id}", {order})

}} // namespace gradlint
"""

RULE_DOC = """\
---
id: {id}
severity: warning
summary: TODO one line on what the check finds (gradlint --list-checks prints it)
---
# {id}

## What it does

TODO: what the check finds, in terms of the training loop: which call, where in the
accumulation window of N micro-batches.

## Why is this bad?

TODO: what the loop computes instead of the large-batch gradient, with the numbers (the
signature `gradlint --confirm` measures).

## Example

{example}

## Use instead

{use_instead}

## What it recognises

- TODO: the forms of the bug that are found (calls by resolved declaration, helpers,
  windows, training step functions).

## Known limitations

- TODO: what is not found, and what is reported although it is fine.

## Options

Set in `.gradlint.yaml` under `CheckOptions`, globally or as `{id}.<Option>` (see [docs/configuration.md](../docs/configuration.md#checkoptions)); the clang-tidy plugin reads the same keys.

- TODO: the options of the training-loop model this check depends on (`OptimizerWrappers`,
  `GradientSyncFunctions`, `AccumulationStepNames`, `WorldSizeNames`), one line each.

## Fix safety

TODO: the fix-it (safe or unsafe, and why), or "There is no automatic fix yet." and how to
fix it by hand.

## References

- [docs/specification.md](../docs/specification.md): TODO: the section that specifies {id}
  (add it there).
"""

RULE_EXAMPLE = """\
```cpp
for (size_t i = 0; i < inputs.size(); ++i) {
  auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
  loss.backward();  // TODO: WHAT
  if ((i + 1) % accum_steps == 0) {
    optimizer.step();
    optimizer.zero_grad();
  }
}
```"""

TEST_CASE = """\
// RUN: %check_gradlint %s
// GRADLINT-PLACEHOLDER: written by tools/new_check.py; delete this line once the case is written.
// TODO: {task}.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {{
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {{
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
{expectation}    if ((i + 1) % accum_steps == 0) {{
      optimizer.step();
      optimizer.zero_grad();
    }}
  }}
}}
"""

FIXTURE_PROGRAM = """\
// {comment}
#include "../harness/FixtureHarness.h"

int main(int argc, char **argv) {{
  const fixture::Options options = fixture::parse_options(argc, argv);
  const int accum_steps = 4;
  fixture::Mlp model;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));

  for (int i = 0; i < options.windows * accum_steps; ++i) {{
    auto [inputs, targets] = fixture::micro_batch(i / accum_steps, i % accum_steps, 0, accum_steps, 1);
    torch::Tensor loss = torch::mse_loss(model->forward(inputs), targets) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {{
      optimizer.step();
      optimizer.zero_grad();
    }}
  }}
  fixture::write_parameters(options, *model);
  return 0;
}}
"""


def error(message):
    print(f"new_check.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def registrations():
    """[(class, id, order)] of checks/?*Check.cpp."""
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "checks", "?*Check.cpp"))):
        with open(path, encoding="utf-8") as f:
            found += [(c, i, int(o)) for c, i, o in REGISTRATION.findall(f.read())]
    return found


def add_row(path, heading, row, after=lambda line: True):
    """Adds `row` after the last table row of the section `heading` that `after` accepts."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    start = lines.index(heading)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    rows = [i for i in range(start, end) if lines[i].startswith("| ") and after(lines[i])]
    if not rows:
        error(f"{os.path.relpath(path, ROOT)}: no table under '{heading}'")
    lines.insert(rows[-1] + 1, row)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def main():
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
        return
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        error("usage: tools/new_check.py <check id>, e.g. accum-foo-bar (--help says more)")
    check_id = sys.argv[1]
    if not ID.match(check_id):
        error(f"'{check_id}' is not a check id: expected 'accum-' and lower-case words of "
              f"letters and digits joined by '-', e.g. accum-foo-bar")
    words = check_id.split("-")[1:]
    cls = "".join(w[0].upper() + w[1:] for w in words) + "Check"
    name = "-".join(words)

    files = {
        f"checks/{cls}.cpp": None,
        f"rules/{check_id}.md": None,
        f"test_cases/{check_id}/positive_basic.cpp": None,
        f"test_cases/{check_id}/negative_basic.cpp": None,
        f"fixtures/{name}/buggy.cpp": None,
        f"fixtures/{name}/fixed.cpp": None,
        f"fixtures/{name}/fixture.json": None,
    }
    existing = [p for p in (f"checks/{cls}.cpp", f"rules/{check_id}.md", f"test_cases/{check_id}",
                            f"fixtures/{name}") if os.path.exists(os.path.join(ROOT, p))]
    known = registrations()
    existing += [f"the registration of {c}" for c, i, _ in known if i == check_id]
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        if f"[{check_id}](" in f.read():
            existing.append("its README.md row")
    if existing:
        error(f"check '{check_id}' exists: {', '.join(existing)}")
    order = max((o for _, _, o in known), default=0) + 1

    files[f"checks/{cls}.cpp"] = CHECK_SOURCE.format(id=check_id, cls=cls, order=order)
    files[f"rules/{check_id}.md"] = RULE_DOC.format(
        id=check_id, example=RULE_EXAMPLE.replace("WHAT", "the bug"),
        use_instead=RULE_EXAMPLE.replace("WHAT", "the fix"))
    files[f"test_cases/{check_id}/positive_basic.cpp"] = TEST_CASE.format(
        task=f"a loop with the bug {check_id} finds; annotate its warning, pin its fix-it",
        expectation=f"    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: TODO the message of {check_id} "
                    f"[{check_id}]\n")
    files[f"test_cases/{check_id}/negative_basic.cpp"] = TEST_CASE.format(
        task=f"a loop close to the bug that {check_id} must not report, and why",
        expectation="")
    files[f"fixtures/{name}/buggy.cpp"] = FIXTURE_PROGRAM.format(
        comment=f"TODO (tools/new_check.py): the loop with the bug {check_id} finds.")
    files[f"fixtures/{name}/fixed.cpp"] = FIXTURE_PROGRAM.format(
        comment=f"TODO (tools/new_check.py): the same loop with the bug of {check_id} fixed.")
    fixture = {
        "model": "mlp 8-16(tanh)-4, runtime::Model::mlp(8, 16, 4, 7)",
        "loss": "mse mean",
        "optimizer": "sgd lr 0.1",
        "micro_batch_size": 4,
        "dtype": "fp32",
        "seed": 7,
        "windows": 3,
        "accumulation_steps": 4,
        "world_size": 1,
        "check": check_id,
        "todo": "written by tools/new_check.py: put the bug into buggy.cpp; set signature (this "
                "fixture's figures under gradlint --confirm, see run_fixtures.py) and "
                "check_signature (what every diagnosis of the check has, in N and W: "
                "fixtures/signatures.py); then delete this line",
        "signature": {"deviates": True},
        "check_signature": ["rel_error_buggy > 1e-3"],
        "expected_findings": {"buggy": [check_id], "fixed": []},
    }
    files[f"fixtures/{name}/fixture.json"] = json.dumps(fixture, indent=2) + "\n"

    for path, text in files.items():
        full = os.path.join(ROOT, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"created {path}")
    add_row(os.path.join(ROOT, "README.md"), "## Checks",
            f"| [{check_id}](rules/{check_id}.md) | TODO: what it finds |")
    print("updated README.md (its row in the '## Checks' table)")
    add_row(os.path.join(ROOT, "fixtures", "README.md"), "## Fixtures",
            f"| {name} | 4 | 1 | fp32 | TODO | TODO | TODO |",
            after=lambda line: not line.startswith("| seed-"))
    print("updated fixtures/README.md (its row in the fixture table)")
    print(f"""
{check_id} is registered as {cls} (order {order}). Its test cases and fixture fail until
they are written. Next:
  1. checks/{cls}.cpp: find the bug in the TrainingLoop and report it (and a fix-it,
     checks/FixIts.h, when one is safe to offer).
  2. rules/{check_id}.md: every section; the summary is what --list-checks prints.
     Specify the check in docs/specification.md too.
  3. test_cases/{check_id}/: write the two cases (delete their GRADLINT-PLACEHOLDER
     lines) and add more positive_*.cpp / negative_*.cpp; pin fix-its with
     tools/pin_fixes.py build/bin/gradlint test_cases/{check_id}/*.cpp and review them.
  4. fixtures/{name}/: put the bug into buggy.cpp; set "signature" and
     "check_signature" in fixture.json and delete its "todo"; fill the rows in
     README.md and fixtures/README.md.
  5. For --confirm without a fix-it: name a program-level fix in the check's
     ConfirmationPlan (programFix; a new kind is a rule in confirm/interpreter/Execute.cpp);
     without one the loop as written is compared with the large-batch reference alone.
  6. ninja -C build gradlint && ctest --test-dir build -R "cases/{check_id}|check-inventory|^confirm$|fixtures/analyzer" --output-on-failure""")


if __name__ == "__main__":
    main()
