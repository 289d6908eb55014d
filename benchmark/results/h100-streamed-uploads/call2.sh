#!/usr/bin/env bash
# Call 2: streamed uploads on by default (HostStaging::DefaultStreamedUploadBytes
# = 4 MiB): every CUDA and ITK test of build-gpu (scripts/make-gpu-bundle.sh
# build-gpu) and, beside them, the Python package built there with its CUDA
# backend (sm_90) and its GPU tests. Memcheck and racecheck of the streamed
# checks ran in call 1; the default changes which masks stream, not the path.
# As run, the script had a bare `wait` here, which also waited for the tee
# of `exec > >(tee ...)`: the call hung after the build (ctest rc and build
# rc in call2-summary.txt) until its 600 s limit, and the Python GPU tests
# ran in a third call on the same warm machine, on the build this one left
# (PYTHONPATH=build/pysite pytest -q python/tests -m gpu: call2-python-gpu-tests.log).
set -uo pipefail
export CMAKE_BUILD_PARALLEL_LEVEL=14 PYTHONUNBUFFERED=1
exec > >(tee $OUT/summary.txt) 2>&1
root=$PWD
nvidia-smi -L; python3 --version
( python3 -m pip install -q --no-build-isolation --no-deps --no-index --target build/pysite \
    -Cbuild-dir=build/pywheel -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 . > $OUT/python-build.log 2>&1
  echo "python build rc=$? at $SECONDS s" > $OUT/python-build.rc ) &
build=$!
mkdir -p /tmp/bundle
xz -dc .devcarry/itk-bundle.tar.xz | tar -C /tmp/bundle -xf - && tar -C "$root" -xf /tmp/bundle/build.tar
[ "$root" = /work/main ] || { mkdir -p /work && ln -sfn "$root" /work/main; }
( export LD_LIBRARY_PATH=/tmp/bundle/lib; cd /work/main/build-gpu &&
  ctest --output-on-failure -E 'CudaLabelStatisticsInstall|Emulation' -j 4 --timeout 400 > $OUT/ctest.log 2>&1
  echo "ctest rc=$? at $SECONDS s" )
grep -E "tests passed|\*\*\*|streamed uploads:" $OUT/ctest.log | tail -20
wait $build # a bare wait would also wait for the tee above, which never ends
cat $OUT/python-build.rc; tail -3 $OUT/python-build.log
export PYTHONPATH=$root/build/pysite
python3 -c "import cudalabelstatistics as c; print('cuda_available', c.cuda_available())"
timeout $((580 - SECONDS)) python3 -m pytest -q python/tests -m gpu -rs -p no:cacheprovider > $OUT/gpu-tests.log 2>&1
echo "python gpu tests rc=$? at $SECONDS s"; tail -8 $OUT/gpu-tests.log
