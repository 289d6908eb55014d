#!/usr/bin/env bash
# The Python package with its CUDA backend, built on the H200, and its tests:
# the GPU ones (-m gpu) and the others (SimpleITK and itk absent there).
set -o pipefail
export CMAKE_BUILD_PARALLEL_LEVEL=16 PYTHONUNBUFFERED=1
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; python3 --version
if [ ! -d build/pysite/cudalabelstatistics ]; then
  start=$SECONDS
  python3 -m pip install -q --no-build-isolation --no-deps --no-index --target build/pysite \
    -Cbuild-dir=build/pywheel -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 . > $OUT/build.log 2>&1
  echo "build rc=$? in $((SECONDS - start)) s"; tail -5 $OUT/build.log
fi
export PYTHONPATH=$PWD/build/pysite
python3 -c "import cudalabelstatistics as c; print('cuda_available', c.cuda_available())"
left=$((560 - SECONDS)); [ $left -gt 30 ] || { echo "no time left for tests"; exit 0; }
timeout $((left * 2 / 3)) python3 -m pytest -q python/tests -m gpu -rs -p no:cacheprovider > $OUT/gpu-tests.log 2>&1
echo "gpu tests rc=$? at $SECONDS s"; tail -12 $OUT/gpu-tests.log
left=$((570 - SECONDS)); [ $left -gt 20 ] || { echo "no time left for the other tests"; exit 0; }
timeout $left python3 -m pytest -q python/tests -m "not gpu" -rs -p no:cacheprovider > $OUT/other-tests.log 2>&1
echo "other tests rc=$? at $SECONDS s"; tail -25 $OUT/other-tests.log
