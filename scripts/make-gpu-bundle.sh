#!/usr/bin/env bash
# Packs a build made here (default build-lead, configured with
# -DCMAKE_CUDA_ARCHITECTURES=90) and the ITK shared libraries its programs
# need into .devcarry/itk-bundle.tar.xz, for scripts/gpu-machine-check.sh on a
# GPU machine that has no ITK. The archive is ignored by git; carry it.
# A call carries at most 64 MB with the tree; the tracked tree is about 52
# MB, nearly all benchmark/results, so the bundle (about 38 MB) travels only
# with that folder left behind for the call: git sparse-checkout set
# --no-cone '/*' '!/benchmark/results/' '/benchmark/results/<this record>/',
# then git sparse-checkout disable (benchmark/results/h100-tile-tables-probe).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build}
work=$(mktemp -d)
mkdir -p "$work/lib" .devcarry
# Left out (the carry limit is 64 MiB): the Python package's build and virtual
# environment that `.ci/run python` leaves in the build (the GPU machine
# builds the package itself), the emulation tests (CPU-only, run in
# CI), the install test's own build, the tests' earlier outputs, and the
# benchmark programs that no test runs, which travel in
# benchmark/make-bench-bundle.sh's bundle (cca_statistics_benchmark stays:
# its quick run is a test).
outside=(! -path '*/CMakeFiles/*' ! -path '*/python-venv/*' ! -path '*/python-wheel/*')
programs=$(find "$build" -type f -perm -u+x "${outside[@]}" ! -name '*.so*' ! -name '*.ninja*' |
  grep -v -E '/test/install/|EmulationTest$|/benchmark/cca_(benchmark|family_benchmark|filter_benchmark|e2e_benchmark|npp_benchmark|label_objects_benchmark)$')
# Everything but the C/C++ runtime, which the GPU machine has in newer versions.
ldd $programs | awk '/=>/ {print $3}' | sort -u |
  grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt)\.so|ld-linux' |
  xargs -r cp -L -t "$work/lib"
# Tests write into the build's Temporary folders: they must exist there too;
# shared libraries the build made itself (test shims) travel with it.
{ echo "$programs"; find "$build" -name '*.so' "${outside[@]}"; find "$build" -name CTestTestfile.cmake; } |
  tar -cf "$work/build.tar" -T -
find "$build" -type d -name Temporary | tar -rf "$work/build.tar" --no-recursion -T -
# xz -9e with a 256 MiB dictionary (one thread): it finds the engine's device code that every
# test program links again across the whole archive (40.7 -> 34.1 MB; the carry limit is 64 MiB with the tree).
tar -C "$work" -cf - lib build.tar | xz -T1 --lzma2=preset=9e,dict=256MiB > .devcarry/itk-bundle.tar.xz
rm -rf "$work"
ls -la .devcarry/itk-bundle.tar.xz
