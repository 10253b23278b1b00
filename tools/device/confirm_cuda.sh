#!/usr/bin/env bash
# On a lent GPU machine (the device tool's `run`): builds gradlint with the
# CUDA backend on 16 cores and runs the tests labelled `cuda`:
# runtime/cuda-parity (kernels) and confirm/cuda (every test finding's
# --confirm verdict and figures on CUDA against the CPU, within 1e-5).
# Takes about 6 minutes; the log goes to $OUT when the device tool sets it.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/usr/local/cuda/bin:$PATH"
log="${OUT:-/tmp}/confirm_cuda.log"
nvidia-smi -L | tee "$log"
# The toolchain, when the machine lacks it (needs Debian's registry).
command -v clang++-19 >/dev/null || bash .ci/setup
cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DGRADLINT_RUNTIME_CUDA=ON >>"$log"
cmake --build build-cuda -j16 --target gradlint runtime_tests >>"$log" 2>&1
ctest --test-dir build-cuda -L cuda --output-on-failure 2>&1 | tee -a "$log"
