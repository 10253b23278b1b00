#!/usr/bin/env bash
# Compile each given .cpp against the real LibTorch headers and against the bundled
# API model (-fsyntax-only) and report OK/FAIL per file and per configuration.
# Usage: verify.sh [--model-only] file.cpp...
# Env: CXX (default clang++-19), TORCH_INCLUDE (default /usr/include/torch/csrc/api/include),
#      TORCH_DIST_INCLUDE (default /usr/include/torch/csrc/distributed),
#      REAL_PCH (optional: a PCH of the real headers built with these -I/-D flags and
#      -std=c++17; the real-header side then takes ~2 s per file instead of ~25 s).
set -u
CXX=${CXX:-clang++-19}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TORCH_INCLUDE=${TORCH_INCLUDE:-/usr/include/torch/csrc/api/include}
TORCH_DIST_INCLUDE=${TORCH_DIST_INCLUDE:-/usr/include/torch/csrc/distributed}
model_only=0
if [ "${1:-}" = "--model-only" ]; then model_only=1; shift; fi
if [ "$#" -eq 0 ]; then echo "usage: $0 [--model-only] file.cpp..." >&2; exit 2; fi
if [ "$model_only" -eq 0 ] && [ ! -f "$TORCH_INCLUDE/torch/torch.h" ]; then
  echo "note: real LibTorch headers not found at $TORCH_INCLUDE; checking the model only" >&2
  model_only=1
fi
real_pch=()
if [ -n "${REAL_PCH:-}" ] && [ -f "$REAL_PCH" ]; then real_pch=(-include-pch "$REAL_PCH"); fi
fail=0
for f in "$@"; do
  if "$CXX" -std=c++17 -fsyntax-only -isystem "$HERE" "$f" >/tmp/verify_model.$$ 2>&1; then
    m=OK
  else
    m=FAIL; fail=1
  fi
  r=SKIP
  if [ "$model_only" -eq 0 ]; then
    if "$CXX" -std=c++17 -fsyntax-only -DUSE_C10D_GLOO -I"$TORCH_INCLUDE" -I"$TORCH_DIST_INCLUDE" \
        "${real_pch[@]}" "$f" \
        >/tmp/verify_real.$$ 2>&1; then
      r=OK
    else
      r=FAIL; fail=1
    fi
  fi
  echo "model=$m real=$r $f"
  if [ "$m" = FAIL ]; then grep -m5 'error' /tmp/verify_model.$$ | sed 's/^/  model: /'; fi
  if [ "$r" = FAIL ]; then grep -m5 'error' /tmp/verify_real.$$ | sed 's/^/  real: /'; fi
done
rm -f /tmp/verify_model.$$ /tmp/verify_real.$$
exit $fail
