#!/usr/bin/env bash
# The sanitizer suite: one clang++-19 build of gradlint's own code with ASan,
# UBSan and libFuzzer's coverage (GRADLINT_FUZZ=ON) in BUILD_DIR, used twice:
#  1. the tests where memory and undefined-behaviour errors would hide: the
#     unit tests (the model, the interpreter, the driver), every fourth
#     annotated case of each check (the release build runs them all),
#     recovery from gaps, hostile inputs, the language server (a long-lived
#     process), the runtime, and the fuzz regressions through the model
#     fuzzer. The release build alone runs the tests of the CLI's options,
#     formats, config, diff, compile databases, child processes and --fix
#     safety: the parsers there are fuzzed below under the same sanitizers
#     (config, compile database, fix applier, JSON-RPC), and the CLI, its
#     writers and its child processes run here in recovery, bad input and
#     the cases;
#  2. the fuzzers' smoke run (test_cases/fuzz/smoke.sh on the same build).
# Not run there: what needs the release build (the clang-tidy plugin cannot
# load into an uninstrumented clang-tidy), the real-header and LibTorch parity
# tests (other programs' code), the memory-limit and kill-timing tests.
#
#   usage: sanitizer_suite.sh [BUILD_DIR [FUZZ_SECONDS]]
#          BUILD_DIR defaults to <repo>/build-sanitizers, FUZZ_SECONDS to 60.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="${1:-$repo/build-sanitizers}"
fuzz_seconds="${2:-60}"

# clang++-19 links with LLVM 19's lld (/usr/lib/llvm-19/bin/ld.lld, package
# lld-19) when it is there: GNU ld takes 11 s for each instrumented
# executable, lld 2 s.
lld_flags() {
  if [[ -x /usr/lib/llvm-19/bin/ld.lld ]]; then
    echo "-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld"
  fi
}

start=$SECONDS
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  mkdir -p "$build"
  # -O0: code generation, not parsing, is most of this build (ModelBuilder.cpp:
  # 23 s of CPU at -O0, 48 s at -O1, 51 s at -O3 with ASan, UBSan and
  # coverage), and the tests' time goes mostly to Clang's own (uninstrumented,
  # optimised) libraries.
  CC=clang-19 CXX=clang++-19 cmake -S "$repo" -B "$build" -G Ninja -DGRADLINT_FUZZ=ON \
    -DGRADLINT_RUNTIME_CUDA=OFF "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG" $(lld_flags) \
    > "$build/configure.log" 2>&1 ||
    { cat "$build/configure.log"; exit 1; }
fi
# The model fuzzer, and the driver's fuzzers (one executable, linked under
# each target's name).
fuzzers=(gradlint_model_fuzzer gradlint_driver_fuzzer)
cmake --build "$build" -j 2 --target gradlint model_unit_tests confirm_unit_tests \
  driver_unit_tests runtime_tests "${fuzzers[@]}" \
  > "$build/build.log" 2>&1 || { tail -n 80 "$build/build.log"; exit 1; }
echo "sanitizers: built in $((SECONDS - start)) s"

# Leak checking stays on: the suite has no known leaks. ASan leaves SIGSEGV to
# gradlint (handle_segv=0): the crash tests fault on purpose and expect the
# release build's "analysis crashed (Segmentation fault)"; memory errors are
# still caught by ASan's instrumentation.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-handle_segv=0}"
# The tests run here: line 1 of suite_tests.txt, less line 2 (the release
# build's CMake labels the same tests sanitizer-suite, but for line 3's,
# which it runs whole). Not bad-input/bounded:
# its memory-limit case needs gradlint's own handler to see the failed
# allocation, and ASan's allocator ends the process first. The fuzz
# regressions run through the model fuzzer here (fuzz-regressions/fuzzer),
# through the CLI in the release build.
mapfile -t selection < "$here/suite_tests.txt"
tests="${selection[0]}"
excluded="${selection[1]}"
status=0
ctest --test-dir "$build" -R "$tests" -E "$excluded" --output-on-failure -j 2 || status=1
echo "sanitizers: tests done at $((SECONDS - start)) s"

bash "$repo/test_cases/fuzz/smoke.sh" "$build" "$fuzz_seconds" || status=1
echo "sanitizers: done in $((SECONDS - start)) s, status $status"
exit "$status"
