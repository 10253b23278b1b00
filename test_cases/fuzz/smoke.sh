#!/usr/bin/env bash
# Builds the model fuzzer and the driver's fuzzers with clang++-19 (only they
# and the libraries they link) and runs them: every file of regressions/
# through the model fuzzer once, each driver fuzzer for a fixed number of
# mutations of its seeds, then SECONDS of model fuzzing from the seed corpus
# (test cases and examples, copied to a scratch folder).
#
#   usage: smoke.sh [--regressions-only] [BUILD_DIR [SECONDS]]
#          BUILD_DIR defaults to <repo>/build-fuzz, SECONDS to 60.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
regressions_only=0
if [[ "${1:-}" == "--regressions-only" ]]; then
  regressions_only=1
  shift
fi
build="${1:-$repo/build-fuzz}"
seconds="${2:-60}"

start=$SECONDS
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  # No CUDA backend and no tests: the fuzzer needs neither.
  mkdir -p "$build"
  CC=clang-19 CXX=clang++-19 cmake -S "$repo" -B "$build" -G Ninja -DGRADLINT_FUZZ=ON \
    -DGRADLINT_RUNTIME_CUDA=OFF -DBUILD_TESTING=OFF > "$build/configure.log" 2>&1 ||
    { cat "$build/configure.log"; exit 1; }
fi
driver_targets=(prefilter config compile_database jsonrpc fix_applier)
# The driver fuzzers are one executable, gradlint_driver_fuzzer, with a link
# per target (bin/gradlint_<target>_fuzzer).
cmake --build "$build" --target gradlint_model_fuzzer gradlint_driver_fuzzer -j 2
fuzzer="$build/bin/gradlint_model_fuzzer"
echo "smoke: fuzzers built in $((SECONDS - start)) s"

export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"

mapfile -t regressions < <(find "$here/regressions" -type f | sort)
if ((${#regressions[@]} == 0)); then
  echo "smoke: no files in $here/regressions"
  exit 1
fi
if ! "$fuzzer" -rss_limit_mb=4096 -timeout=20 "${regressions[@]}" > "$build/fuzz-regressions.log" 2>&1; then
  tail -n 60 "$build/fuzz-regressions.log"
  echo "smoke: a regression input fails the fuzzer"
  exit 1
fi
echo "smoke: ${#regressions[@]} regression inputs ran without a crash"
((regressions_only)) && exit 0

mapfile -t seeds_sample < <(ls "$repo"/test_cases/accum-*/positive_*.cpp | sort)
# The driver's fuzzers: fast, so a fixed number of mutations each (a fixed
# seed: repeatable), from their seed corpora (test_cases/fuzz/seeds/<target>,
# copied: libFuzzer adds what it finds to the folder it is given).
driver_runs="${GRADLINT_DRIVER_FUZZ_RUNS:-10000}"
for target in "${driver_targets[@]}"; do
  seeds="$here/seeds/${target//_/-}"
  work="$(mktemp -d)"
  cp "$seeds"/* "$work"/
  # The prefilter also starts from real loops: a few of the test cases.
  [[ "$target" == prefilter ]] && cp "${seeds_sample[@]:0:8}" "$work"/
  log="$build/fuzz-$target.log"
  if ! "$build/bin/gradlint_${target}_fuzzer" "$work" -runs="$driver_runs" \
      -seed="${GRADLINT_FUZZ_SEED:-1}" -timeout=20 -rss_limit_mb=2048 \
      -artifact_prefix="$build/fuzz-artifacts-$target-" > "$log" 2>&1; then
    tail -n 40 "$log"
    echo "smoke: the $target fuzzer failed; its input is in $build/fuzz-artifacts-$target-*"
    rm -rf "$work"
    exit 1
  fi
  rm -rf "$work"
  echo "smoke: $target: $(grep -aE '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)"
done

corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
# Folder-prefixed names: several checks have cases of the same name. libFuzzer
# runs every seed before it starts to mutate (about 1 s each: a parse of the
# API model), so an evenly spaced sample of GRADLINT_FUZZ_SEEDS (default 32) of
# the 500+ cases keeps the time for fuzzing; with all of them, a "60 s" run
# only replayed the seeds for 13 minutes.
mapfile -t seeds < <(ls "$repo"/test_cases/accum-*/*.cpp "$repo"/examples/*.cpp | sort)
wanted="${GRADLINT_FUZZ_SEEDS:-32}"
stride=$(( (${#seeds[@]} + wanted - 1) / wanted ))
for ((i = 0; i < ${#seeds[@]}; i += stride)); do
  seed="${seeds[i]}"
  cp "$seed" "$corpus/$(basename "$(dirname "$seed")")__$(basename "$seed")"
done
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
run_start=$SECONDS
set +e
# A fixed seed keeps CI repeatable; GRADLINT_FUZZ_SEED=0 lets libFuzzer pick one.
"$fuzzer" "$corpus" -dict="$here/training.dict" -max_total_time="$seconds" -timeout=20 \
  -seed="${GRADLINT_FUZZ_SEED:-1}" \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" 2>&1 |
  tee "$build/fuzz-smoke.log" | grep -E '^#[0-9]+[[:space:]]+(INITED|DONE|pulse)|Seed:|stat::|ERROR|SUMMARY'
status=${PIPESTATUS[0]}
set -e
echo "smoke: fuzzed ${seconds} s (run took $((SECONDS - run_start)) s, total $((SECONDS - start)) s), exit status $status"
if ((status != 0)); then
  echo "smoke: the fuzzer failed; inputs in $artifacts, log in $build/fuzz-smoke.log"
  tail -n 60 "$build/fuzz-smoke.log"
fi
exit "$status"
