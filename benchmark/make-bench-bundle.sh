#!/usr/bin/env bash
# Packs the benchmark programs of a build made here (default build-bench,
# configured with -DCMAKE_CUDA_ARCHITECTURES=90) and the ITK shared libraries
# they need (the program CudaLabelStatistics too, for the end-to-end steps;
# cca_statistics_benchmark for the stats step)
# into .devcarry/bench-bundle.tar.xz, for
# benchmark/run-on-gpu-machine.sh and benchmark/reproduce-papers.sh on a GPU
# machine that has no ITK. NPP and the
# C/C++ runtime are left out: the GPU machine has its own. The engine library
# travels too, so that the NPP peer can be rebuilt there if the carried one
# does not load. The archive is ignored by git; carry it.
# --slim strips the programs and libraries and leaves the engine library
# out (about 13 MB instead of 31 for the e2e programs): what a call carries
# beside the repository is limited to 64 MiB.
# Usage: benchmark/make-bench-bundle.sh [--slim] [build]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
slim=false
if [[ ${1:-} == --slim ]]; then
  slim=true
  shift
fi
build=${1:-build-bench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib" .devcarry
programs=$(ls "$build"/benchmark/cca_benchmark "$build"/benchmark/cca_filter_benchmark \
  "$build"/benchmark/cca_npp_benchmark "$build"/benchmark/cca_family_benchmark \
  "$build"/benchmark/cca_e2e_benchmark "$build"/benchmark/cca_statistics_benchmark \
  "$build"/benchmark/cca_label_objects_benchmark \
  "$build"/bin/CudaLabelStatistics 2>/dev/null || true)
[[ -n "$programs" ]] || { echo "no benchmark programs in $build/benchmark (configure it with -DCCA_BUILD_ITK_BENCHMARKS=ON for those that time ITK)" >&2; exit 1; }
ldd $programs | awk '/=>/ && $3 ~ /^\// {print $3}' | sort -u |
  { grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt)\.so|ld-linux|/libnpp|/libcuda\.so' || true; } |
  xargs -r cp -L -t "$work/lib"
if $slim; then
  mkdir -p "$work/tree"
  for program in $programs; do
    mkdir -p "$work/tree/$(dirname "$program")"
    strip -o "$work/tree/$program" "$program"
  done
  strip --strip-unneeded "$work"/lib/*
  (cd "$work/tree" && tar -cf "$work/build.tar" "$build")
else
  { echo "$programs"; ls "$build"/src/libCudaLabelStatisticsEngine.a; } | tar -cf "$work/build.tar" -T -
fi
# The slim bundle's programs share their engine: a dictionary that spans
# them stores it about once.
level=-6
$slim && level=--lzma2=preset=9e,dict=256MiB
tar -C "$work" -cf - lib build.tar | xz -T2 $level > .devcarry/bench-bundle.tar.xz
ls -la .devcarry/bench-bundle.tar.xz
