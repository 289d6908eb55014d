#!/usr/bin/env bash
# Call 5 (H200): the Python package built on the GPU machine from this
# tree (nvcc, sm_90; the commands of scripts/gpu-machine-check.sh's
# PYTHON=1 step) and its GPU tests (CuPy, PyTorch, NumPy on CUDA), whose 2D
# tables now come from planar entries.
set -u
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export CMAKE_BUILD_PARALLEL_LEVEL=16 PIP_BREAK_SYSTEM_PACKAGES=1
root=$PWD
python3 -m pip install -q --no-build-isolation --no-deps -Cbuild-dir=/tmp/python-wheel \
  -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 . > $OUT/python-build.log 2>&1
echo "python package build rc=$? at $SECONDS s"
tail -3 $OUT/python-build.log
(cd /tmp && timeout 200 python3 -m pytest -q -m gpu -rs -p no:cacheprovider "$root/python/tests") > $OUT/python-gpu.log 2>&1
echo "python GPU tests rc=$? at $SECONDS s"
tail -8 $OUT/python-gpu.log
