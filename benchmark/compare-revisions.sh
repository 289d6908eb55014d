#!/usr/bin/env bash
# Times cca_benchmark of two source trees of this project in one run on a GPU
# machine, alternating them, so that a refactoring can be shown to change
# nothing (or a change shown to help) on the same GPU in the same session.
#   benchmark/compare-revisions.sh BEFORE.tar.gz AFTER.tar.gz [cca_benchmark options]
# The archives come from `git archive REV | gzip > X.tar.gz` here. Each tree
# is built engine-only (no ITK) for sm_90 in parallel; then BEFORE, AFTER,
# BEFORE, AFTER run with the options given (default: --size 8192 --reps 5
# --warmup 1 --connectivity face --outputs features), the JSON of every pass
# going to $OUT (or /tmp/compare-out) and the summary lines to the log.
set -uo pipefail
before=$(realpath "$1")
after=$(realpath "$2")
shift 2
options=("$@")
if ((${#options[@]} == 0)); then
  options=(--size 8192 --reps 5 --warmup 1 --connectivity face --outputs features)
fi
out=${OUT:-/tmp/compare-out}
work=/tmp/compare-revisions
mkdir -p "$out" "$work"
jobs=$(nproc)
build() { # name archive
  local src="$work/$1-src" bld="$work/$1-build"
  rm -rf "$src" "$bld" && mkdir -p "$src"
  tar -C "$src" -xzf "$2" &&
    cmake -S "$src" -B "$bld" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DCCA_BUILD_ITK=OFF -DCCA_BUILD_TESTING=OFF > "$out/$1-configure.log" 2>&1 &&
    cmake --build "$bld" -j $((jobs / 2)) --target cca_benchmark > "$out/$1-build.log" 2>&1
}
build before "$before" &
build after "$after" &
wait
for name in before after; do
  [[ -x "$work/$name-build/benchmark/cca_benchmark" ]] || { echo "$name: build failed (see $out/$name-build.log)"; exit 1; }
done
for pass in 1 2; do
  for name in before after; do
    echo "== $name, pass $pass: cca_benchmark ${options[*]}"
    "$work/$name-build/benchmark/cca_benchmark" "${options[@]}" --json "$out/$name-$pass.json" |
      grep -E '== |Gpix/s' | tail -12
  done
done
