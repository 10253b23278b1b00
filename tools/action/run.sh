#!/usr/bin/env bash
# The action's lint step: a SARIF report for code scanning and a Markdown
# summary for the job page; the exit status goes to the step's outputs (the
# action's last step fails on it, after the upload).
#   GRADLINT_FILES   the files, as shell words (globs expanded)
#   GRADLINT_ARGS    more options
#   GRADLINT         the binary (default: gradlint on PATH)
set -uo pipefail

gradlint="${GRADLINT:-gradlint}"
read -r -a args <<<"${GRADLINT_ARGS:-}"
# Word splitting and globbing of the files input are wanted here.
# shellcheck disable=SC2206
files=(${GRADLINT_FILES:-})
if [ ${#files[@]} -eq 0 ]; then
  echo "::error::gradlint: the files input names no file"
  echo "exit-status=2" >>"$GITHUB_OUTPUT"
  exit 0
fi
sarif="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/gradlint.sarif"
status=0
"$gradlint" --format=sarif --output-file="$sarif" "${args[@]}" "${files[@]}" || status=$?
# The same run again for the summary, from the warm precompiled-header cache.
"$gradlint" --format=markdown "${args[@]}" "${files[@]}" >>"${GITHUB_STEP_SUMMARY:-/dev/null}" || true
# Annotations on the diff, when the SARIF is not uploaded to code scanning.
if [ "${GRADLINT_ANNOTATE:-false}" = true ]; then
  "$gradlint" --format=github --exit-zero "${args[@]}" "${files[@]}" || true
fi
{
  echo "exit-status=$status"
  if [ -s "$sarif" ]; then
    echo "sarif-file=$sarif"
  fi
} >>"$GITHUB_OUTPUT"
