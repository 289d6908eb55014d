#!/usr/bin/env bash
# Checks (or, with --fix, applies) the C++/CUDA layout of .clang-format, ITK's
# own settings, on every tracked C++ and CUDA file (not the configured
# templates, *.cpp.in: clang-format would split their @VARIABLE@s). Used by
# .ci/run.
#   scripts/check-format.sh [--fix]
# Needs clang-format 14 or newer (Debian 12's clang-format package); other
# versions may lay out a few constructs differently, so CI pins what it checks
# with to the version named below and only warns elsewhere.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
format=${CLANG_FORMAT:-clang-format}
if ! command -v "$format" > /dev/null 2>&1; then
  echo "check-format: $format not found (apt-get install clang-format)" >&2
  exit 1
fi
version=$("$format" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
mapfile -t files < <(git ls-files '*.h' '*.hxx' '*.cxx' '*.cpp' '*.cu' '*.cuh' | grep -v '^third_party/')
if [[ "${1:-}" == --fix ]]; then
  "$format" -i --style=file "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  if ! "$format" --style=file --dry-run -Werror "$f" > /dev/null 2>&1; then
    bad+=("$f")
  fi
done
if ((${#bad[@]})); then
  echo "check-format: ${#bad[@]} file(s) differ from .clang-format (clang-format $version):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "run: scripts/check-format.sh --fix" >&2
  if [[ "$version" != 14 ]]; then
    echo "check-format: (clang-format $version, not 14: reported only)" >&2
    exit 0
  fi
  exit 1
fi
echo "check-format: ${#files[@]} files follow .clang-format"
