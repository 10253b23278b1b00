#!/usr/bin/env python3
"""gradlint inside a user's build: a real CMake project (test_cases/integration/
project) configured with CMAKE_CXX_CLANG_TIDY, CMake's co-compile hook, which
runs the tool as `<tool> <args> <source> -- <the whole compiler command>`
before each compile and fails the build when the tool exits non-zero.

usage: build_hook_tests.py GRADLINT SOURCE_DIR [CLANG_TIDY PLUGIN]"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, summary  # noqa: E402

GRADLINT = os.path.abspath(sys.argv[1])
SOURCE_DIR = os.path.abspath(sys.argv[2])
CLANG_TIDY = sys.argv[3] if len(sys.argv) > 4 else None
PLUGIN = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else None
PROJECT = os.path.join(SOURCE_DIR, "test_cases", "integration", "project")
TORCH_INCLUDE = "/usr/include/torch/csrc/api/include"


def configure(workdir, name, tidy_command):
    build = os.path.join(workdir, name)
    run = subprocess.run(["cmake", "-S", os.path.join(workdir, "project"), "-B", build, "-G",
                          "Ninja", f"-DCMAKE_CXX_CLANG_TIDY={';'.join(tidy_command)}"],
                         capture_output=True, text=True, timeout=300)
    check(f"{name}: the project configures", run.returncode == 0, run.stdout + run.stderr)
    return build


def build_target(build, target):
    return subprocess.run(["cmake", "--build", build, "--target", target], capture_output=True,
                          text=True, timeout=900)


def main():
    if not os.path.exists(os.path.join(TORCH_INCLUDE, "torch", "torch.h")):
        print("skipped: the real LibTorch headers are not installed")
        return 77
    workdir = tempfile.mkdtemp(prefix="gradlint-build-hook-")
    # The preamble cache of these runs stays in the test's folder.
    os.environ["XDG_CACHE_HOME"] = os.path.join(workdir, "cache")
    try:
        shutil.copytree(PROJECT, os.path.join(workdir, "project"))
        buggy = os.path.join(workdir, "project", "src", "regression_buggy.cpp")
        finding = f"{buggy}:14:5: warning: loss passed to backward() is not divided"

        # gradlint itself as the co-compile tool: a finding fails the build.
        build = configure(workdir, "gradlint", [GRADLINT])
        clean = build_target(build, "regression_clean")
        check("gradlint: the clean target builds (no finding, the object is compiled)",
              clean.returncode == 0 and os.path.exists(os.path.join(
                  build, "CMakeFiles", "regression_clean.dir", "src",
                  "regression_clean.cpp.o")), clean.stdout + clean.stderr)
        failed = build_target(build, "regression_buggy")
        output = failed.stdout + failed.stderr
        check("gradlint: the buggy target's build fails", failed.returncode != 0, output)
        check("gradlint: ... naming the finding, its file, line and check",
              finding in output and "[accum-missing-loss-division]" in output, output)
        check("gradlint: ... with the window the compile command's -D gave it",
              "N = window = 8" in output, output)

        # --exit-zero: the findings are printed and the build goes on.
        build = configure(workdir, "exit-zero", [GRADLINT, "--exit-zero"])
        warned = build_target(build, "regression_buggy")
        output = warned.stdout + warned.stderr
        check("--exit-zero: the buggy target builds", warned.returncode == 0, output)
        check("--exit-zero: ... and the finding is still printed", finding in output, output)

        # The clang-tidy plugin through the same hook; --warnings-as-errors fails the build.
        if CLANG_TIDY and PLUGIN:
            build = configure(workdir, "clang-tidy", [
                CLANG_TIDY, f"-load={PLUGIN}", "-checks=-*,accum-*",
                "-warnings-as-errors=accum-*"])
            failed = build_target(build, "regression_buggy")
            output = failed.stdout + failed.stderr
            check("clang-tidy plugin: the buggy target's build fails", failed.returncode != 0,
                  output)
            check("clang-tidy plugin: ... on the same finding",
                  f"{buggy}:14:5: error: loss passed to backward() is not divided" in output and
                  "[accum-missing-loss-division,-warnings-as-errors]" in output, output)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
