#!/usr/bin/env bash
# Call 3: the GPU test suite on main's final build of this session
# (build-gpu, sm_90, scripts/make-gpu-bundle.sh's bundle; its CUDA code is
# that of 483bb35, whose last change, a static_assert removed from
# cuda/CudaBackend.cu, had not run the suite on a device):
# scripts/gpu-machine-check.sh: ctest (GPU tests and the ITK filter's tests
# with the CUDA backend), compute-sanitizer memcheck and racecheck on the
# usual subset, and the program's demo.
set -u
mkdir -p $OUT
BUILD=build-gpu timeout 585 bash scripts/gpu-machine-check.sh > $OUT/gpu-check.txt 2>&1
echo "check rc=$?"
cat $OUT/gpu-check.txt | head -80
