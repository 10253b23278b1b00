#!/usr/bin/env bash
# The action's install step: installs gradlint's .deb with apt (which pulls in
# its LLVM 19 dependencies), unless gradlint is already on PATH and no package
# was asked for.
#   GRADLINT_PACKAGE             a .deb path or https URL; empty: this release's .deb
#   GRADLINT_ACTION_REPOSITORY   owner/name of the action (github.action_repository)
#   GRADLINT_ACTION_REF          the action's tag, e.g. v0.1.0 (github.action_ref)
set -euo pipefail

package="${GRADLINT_PACKAGE:-}"
if [ -z "$package" ] && command -v gradlint >/dev/null; then
  echo "gradlint: using $(command -v gradlint) ($(gradlint --version))"
  exit 0
fi
if [ -z "$package" ]; then
  ref="${GRADLINT_ACTION_REF:-}"
  if [[ ! "$ref" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    echo "::error::gradlint: no package given and the action's ref '$ref' is not a release tag (vX.Y.Z); set the 'package' input"
    exit 2
  fi
  package="https://github.com/${GRADLINT_ACTION_REPOSITORY}/releases/download/${ref}/gradlint_${ref#v}_amd64.deb"
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  sudo="sudo"
fi
workdir="$(mktemp -d)"
trap 'rm -rf "$workdir"' EXIT
if [[ "$package" == https://* ]]; then
  echo "gradlint: downloading $package"
  curl --fail --location --silent --show-error --output "$workdir/gradlint.deb" "$package"
  package="$workdir/gradlint.deb"
elif [ ! -f "$package" ]; then
  echo "::error::gradlint: the package '$package' is neither an https URL nor a file"
  exit 2
fi
# apt needs a path with a slash to take a file rather than a package name.
case "$package" in /*|./*) ;; *) package="./$package" ;; esac
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "$package"
echo "gradlint: installed $(gradlint --version)"
