#!/usr/bin/env bash
# Call 3: the GPU test suite on this session's final build (build-gpu,
# sm_90, scripts/make-gpu-bundle.sh's bundle; the placing pass's batched
# loads): scripts/gpu-machine-check.sh: ctest (GPU tests and the ITK
# filter's tests with the CUDA backend), compute-sanitizer memcheck and
# racecheck on the usual subset, and the program's demo.
set -u
mkdir -p $OUT
BUILD=build-gpu timeout 585 bash scripts/gpu-machine-check.sh > $OUT/gpu-check.txt 2>&1
echo "check rc=$?"
cat $OUT/gpu-check.txt | head -80
