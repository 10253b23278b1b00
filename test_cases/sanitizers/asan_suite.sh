#!/usr/bin/env bash
# The sanitizer suite: gradlint, its unit tests and test helpers built with
# ASan and UBSan (GRADLINT_SANITIZE=address,undefined; GCC, so float-to-int
# casts are checked too) in BUILD_DIR, then every test of gradlint's own
# behaviour run there: the annotated cases, the unit tests, the CLI, config,
# formats, diff, recovery, bad input, --fix safety, the language server, the
# runtime and the fuzz regressions. Not run there: what needs the release
# build (the clang-tidy plugin cannot load into an uninstrumented clang-tidy),
# the real-header and LibTorch parity tests (other programs' code), the
# memory-limit and kill-timing tests, and the fuzzers (fuzz-smoke has its own
# ASan build).
#
#   usage: asan_suite.sh [BUILD_DIR]   (default <repo>/build-asan)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="${1:-$repo/build-asan}"

start=$SECONDS
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  mkdir -p "$build"
  cmake -S "$repo" -B "$build" -G Ninja -DGRADLINT_SANITIZE=address,undefined \
    -DGRADLINT_RUNTIME_CUDA=OFF > "$build/configure.log" 2>&1 ||
    { cat "$build/configure.log"; exit 1; }
fi
cmake --build "$build" -j 2 --target gradlint model_unit_tests confirm_unit_tests \
  driver_unit_tests runtime_tests write_fix_sample seed_claims > "$build/build.log" 2>&1 ||
  { tail -n 80 "$build/build.log"; exit 1; }
echo "asan-suite: built in $((SECONDS - start)) s"

# Leak checking stays on: the suite has no known leaks.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
# Not bad-input/bounded: its memory-limit case needs gradlint's own handler to
# see the failed allocation, and ASan's allocator ends the process first.
tests='^(cases/|unit/|cli$|config$|formats$|diff$|recovery$|bad-input$|fixits/safety$|lsp$|runtime/|fuzz-regressions$|fixtures/analyzer$)'
excluded='^(runtime/libtorch-parity|runtime/cuda-parity)$'
ctest --test-dir "$build" -R "$tests" -E "$excluded" --output-on-failure -j 2
echo "asan-suite: done in $((SECONDS - start)) s"
