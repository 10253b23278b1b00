#!/usr/bin/env python3
"""A gap never blanks a file: a file with errors is analysed on the AST Clang
recovered. What the bundled API model lacks (a name, a header) is a note and
the run does not fail; an error in the user's code or setup stays an error
(exit 2) but the file's findings are still reported, without fixes. In model
mode a LibTorch include never reaches an installed LibTorch. Headers given as
main files parse as C++ and use the preamble cache.

usage: recovery_tests.py <gradlint> [model|real-headers]
  model (the default): everything but the real-header case, which
  real-headers runs alone (the sanitizer suite runs the first: a parse of the
  real headers under ASan's allocator costs 37 s of CPU, and its code is
  Clang's, which ASan does not instrument).
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
GROUP = sys.argv[2] if len(sys.argv) > 2 else "model"
REAL_TORCH = "/usr/include/torch/csrc/api/include"

# A window with a missing division: the finding every input below must keep.
LOOP = """
void train(torch::nn::Linear model, torch::optim::SGD &opt, std::vector<torch::Tensor> &xs) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model->forward(xs[i]).sum();
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
"""
EXPECTED_CHECK = "accum-missing-loss-division"


def run(*args, cwd=None):
    return subprocess.run([GRADLINT, *args], capture_output=True, text=True, cwd=cwd)


def analyse(path, *compiler_args, extra=()):
    result = run("--format=json", *extra, path, "--", "-std=c++17", *compiler_args)
    try:
        document = json.loads(result.stdout)
    except ValueError:
        document = {"diagnostics": [], "errors": [{"message": result.stderr}], "notes": []}
    return result.returncode, document


def write(directory, name, text):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def checks_of(document):
    return sorted(d["check"] for d in document["diagnostics"])


def test_missing_names_are_notes(tmp):
    # Names in LibTorch's namespaces that no LibTorch declares: the model
    # lacks them as it lacks a real name, and the loop is still analysed.
    source = write(tmp, "gaps.cpp", "#include <torch/torch.h>\n" + """
torch::nn::GradlintNoSuchNorm2d norm(4);
torch::Tensor prepare(torch::Tensor x) {
  auto y = at::gradlint_no_such_op(x);
  return x.gradlint_no_such_method();
}
""" + LOOP)
    code, document = analyse(source)
    check("model gaps: exit 1 (findings), not 2", code == 1, (code, document))
    check("model gaps: no error", document["errors"] == [], document["errors"])
    check("model gaps: the loop's finding is reported", checks_of(document) == [EXPECTED_CHECK],
          document)
    notes = " | ".join(n["message"] for n in document.get("notes", []))
    for name in ("GradlintNoSuchNorm2d", "gradlint_no_such_op", "gradlint_no_such_method"):
        check(f"model gaps: a note names {name}", name in notes, notes)
    lines = sorted(n.get("line", 0) for n in document.get("notes", []))
    check("model gaps: each note has its line", lines[:3] == [3, 5, 6], lines)
    text = run(source, "--")
    check("model gaps: text output says 'note:' on stderr, not 'error:'",
          ": note: not in the LibTorch API model" in text.stderr and ": error:" not in text.stderr,
          text.stderr)


def test_undeclared_name_under_using_namespace(tmp):
    # `using namespace torch;` makes an unqualified name the model lacks an
    # undeclared identifier: still the model's gap.
    source = write(tmp, "using.cpp", "#include <torch/torch.h>\nusing namespace torch;\n" + """
Tensor squash(Tensor x) { return gradlint_no_such_function(x); }
""" + LOOP)
    code, document = analyse(source)
    check("using namespace torch: an undeclared name is a note", code == 1 and
          not document["errors"] and document.get("notes"), (code, document))


def test_user_errors_stay_errors(tmp):
    source = write(tmp, "typo.cpp", "#include <torch/torch.h>\n" + LOOP + """
int helper() { return undefined_counter; }
void broken( { }
""")
    code, document = analyse(source)
    check("user error: exit 2", code == 2, (code, document))
    errors = document["errors"]
    check("user error: one error with its line and column",
          len(errors) == 1 and errors[0].get("line") == 15 and errors[0].get("column"), errors)
    check("user error: the findings of the rest of the file are reported",
          checks_of(document) == [EXPECTED_CHECK], document)
    check("user error: no fix is offered on code Clang had to recover",
          all("fix" not in d for d in document["diagnostics"]), document["diagnostics"])
    with open(source) as f:
        before = f.read()
    run("--fix", source, "--", "-std=c++17")
    with open(source) as f:
        check("user error: --fix leaves the file alone", f.read() == before)
    missing = write(tmp, "project.cpp",
                    '#include <torch/torch.h>\n#include "project/trainer_config.h"\n' + LOOP)
    code, document = analyse(missing)
    check("a project header not found: an error, findings still reported",
          code == 2 and "not found" in json.dumps(document["errors"]) and
          checks_of(document) == [EXPECTED_CHECK], (code, document))


def test_missing_model_header(tmp):
    source = write(tmp, "header.cpp", "#include <torch/torch.h>\n"
                   "#include <torch/gradlint/no_such_header.h>\n" + LOOP)
    code, document = analyse(source)
    notes = json.dumps(document.get("notes"))
    check("missing LibTorch header: a note naming it, no error",
          code == 1 and not document["errors"] and "torch/gradlint/no_such_header.h" in notes,
          (code, document))
    check("missing LibTorch header: the finding is reported",
          checks_of(document) == [EXPECTED_CHECK], document)


def header_only_installed():
    """A header of the installed LibTorch that the API model does not have."""
    model = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "..",
                         "api_model")
    for root in ("/usr/include/ATen/native", "/usr/include/ATen/core", "/usr/include/c10/util"):
        if not os.path.isdir(root):
            continue
        for name in sorted(os.listdir(root)):
            relative = os.path.relpath(os.path.join(root, name), "/usr/include")
            if name.endswith(".h") and not os.path.exists(os.path.join(model, relative)):
                return relative
    return None


def test_never_reaches_installed_libtorch(tmp):
    relative = header_only_installed()
    if relative is None:
        print("skipped: no installed LibTorch header missing from the model")
        return
    source = write(tmp, "installed.cpp",
                   f"#include <torch/torch.h>\n#include <{relative}>\n" + LOOP)
    code, document = analyse(source)
    check(f"<{relative}> in model mode: served by the model, not /usr/include",
          code == 1 and not document["errors"] and relative in json.dumps(document.get("notes")),
          (code, document))


def test_real_headers_mode(tmp):
    if not os.path.exists(os.path.join(REAL_TORCH, "torch", "torch.h")):
        print("skipped: real LibTorch headers not installed")
        return
    source = write(tmp, "real.cpp", "#include <torch/torch.h>\n"
                   "torch::Tensor f(torch::Tensor x) { return x.gradlint_no_such_method(); }\n"
                   + LOOP)
    code, document = analyse(source, "-isystem", REAL_TORCH)
    check("real headers: a name LibTorch lacks is the user's error (exit 2)",
          code == 2 and document["errors"] and not document.get("notes"), (code, document))
    check("real headers: the findings are still reported",
          checks_of(document) == [EXPECTED_CHECK], document)


def test_header_as_main_file(tmp):
    header = write(tmp, "trainer.h", "#pragma once\n#include <torch/torch.h>\n" + LOOP)
    cache = os.path.join(tmp, "cache")
    first = run("--format=json", "--verbose", "--cache-dir", cache, header, "--", "-std=c++17")
    try:
        document = json.loads(first.stdout)
    except ValueError:
        document = {"errors": [first.stderr], "diagnostics": []}
    check("a .h main file is parsed as C++", first.returncode == 1 and not document["errors"] and
          checks_of(document) == [EXPECTED_CHECK], (first.returncode, document))
    second = run("--verbose", "--cache-dir", cache, header, "--", "-std=c++17")
    check("a .h main file uses the preamble cache", "1 reused" in second.stderr,
          first.stderr + second.stderr)


# LibTorch 2.x names that 1.13 lacks but training code writes: the model declares them
# (api_model/torch/gradlint_libtorch2_names.h), so such a file is analysed without errors
# and without "not in the model" notes.
LIBTORCH2 = """#include <torch/torch.h>
#include <torch/mps.h>
#include <torch/xpu.h>
torch::Device pick_device() {
  if (torch::mps::is_available()) {
    torch::mps::manual_seed(0);
    torch::mps::synchronize();
    torch::mps::commit();
    return torch::Device(torch::kMPS);
  }
  if (torch::xpu::is_available() && torch::xpu::device_count() > 0) return torch::Device(torch::kXPU);
  torch::cuda::synchronize();
  return torch::kCPU;
}
torch::Tensor attend(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v) {
  auto a = torch::scaled_dot_product_attention(q, k, v, {}, 0.1, /*is_causal=*/true);
  auto b = at::scaled_dot_product_attention(q, k, v, torch::ones({1}), 0.0, false, 0.125, true);
  c10::SymInt n = q.sym_size(-1);
  int64_t d = n.guard_int(__FILE__, __LINE__) + n.expect_int();
  (void)n.maybe_as_int();
  (void)n.is_heap_allocated();
  return (a + b) / static_cast<double>(d);
}
void amp(torch::optim::SGD &opt, torch::Tensor loss) {
  at::autocast::set_autocast_enabled(at::kCUDA, true);
  at::autocast::set_autocast_dtype(at::kCUDA, at::kHalf);
  (void)at::autocast::is_autocast_enabled(at::kCUDA);
  (void)at::autocast::get_autocast_dtype(at::kCUDA);
  torch::optim::ReduceLROnPlateauScheduler plateau(
      opt, torch::optim::ReduceLROnPlateauScheduler::min, 0.5, 3);
  plateau.step(loss.item<float>());
}
"""


def test_libtorch2_names(tmp):
    source = write(tmp, "libtorch2.cpp", LIBTORCH2 + LOOP)
    code, document = analyse(source)
    check("LibTorch 2.x names: exit 1 (findings), not 2", code == 1, (code, document))
    check("LibTorch 2.x names: no error", document["errors"] == [], document["errors"])
    check("LibTorch 2.x names: no model-gap note", not document.get("notes"), document.get("notes"))
    check("LibTorch 2.x names: the loop's finding is reported",
          checks_of(document) == [EXPECTED_CHECK], document)


def main():
    groups = {
        "model": (test_missing_names_are_notes, test_undeclared_name_under_using_namespace,
                  test_user_errors_stay_errors, test_missing_model_header,
                  test_never_reaches_installed_libtorch, test_header_as_main_file,
                  test_libtorch2_names),
        "real-headers": (test_real_headers_mode,),
    }
    if GROUP not in groups:
        sys.exit(f"usage: recovery_tests.py <gradlint> [{'|'.join(groups)}]")
    with tempfile.TemporaryDirectory() as tmp:
        for test in groups[GROUP]:
            test(tmp)
    return summary("recovery: ")


if __name__ == "__main__":
    sys.exit(main())
