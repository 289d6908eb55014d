#!/usr/bin/env bash
# Call 8: the Python package built on the H200 from this commit (kernels
# without line tables), its GPU tests and the others, then its start-up
# benchmark (fresh interpreters, with and without start_cuda()).
set -o pipefail
export CMAKE_BUILD_PARALLEL_LEVEL=16 PYTHONUNBUFFERED=1
mkdir -p $OUT/call8 && exec > >(tee $OUT/call8/summary.txt) 2>&1
nvidia-smi -L; python3 --version
start=$SECONDS
python3 -m pip install -q --no-build-isolation --no-deps --no-index --target build/pysite \
  -Cbuild-dir=build/pywheel -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 . > $OUT/call8/build.log 2>&1
echo "build rc=$? in $((SECONDS - start)) s"; tail -3 $OUT/call8/build.log
export PYTHONPATH=$PWD/build/pysite
python3 -c "import cudalabelstatistics as c; print('cuda_available', c.cuda_available())"
timeout 120 python3 -m pytest -q python/tests -m gpu -rs -p no:cacheprovider > $OUT/call8/gpu-tests.log 2>&1
echo "gpu tests rc=$? at $SECONDS s"; tail -6 $OUT/call8/gpu-tests.log
timeout 100 python3 -m pytest -q python/tests -m "not gpu" -rs -p no:cacheprovider > $OUT/call8/other-tests.log 2>&1
echo "other tests rc=$? at $SECONDS s"; tail -4 $OUT/call8/other-tests.log
timeout 120 python3 benchmark/python_start_up.py --processes 5 --other-ms 0 300 > $OUT/call8/start-up.log 2>&1
echo "start-up rc=$? at $SECONDS s"; tail -12 $OUT/call8/start-up.log
echo "done at $SECONDS s"
