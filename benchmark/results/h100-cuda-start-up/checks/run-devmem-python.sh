#!/bin/bash
# Session 22: the pinned-block test (fixed) and a mutant that does not lock; the Python package's GPU tests on the new pinned cache
root=$(pwd)
mkdir -p $OUT/logs /tmp/t && tar -C /tmp/t -xJf .devcarry/b22f.tar.xz
(timeout 90 /tmp/t/ccaDeviceMemoryTest-fixed > $OUT/logs/devmem.log 2>&1; echo "devmem rc=$?"; tail -1 $OUT/logs/devmem.log) >> $OUT/check.txt
(timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/t/ccaDeviceMemoryTest-fixed > $OUT/logs/memcheck-devmem.log 2>&1; echo "memcheck devmem rc=$?"; tail -1 $OUT/logs/memcheck-devmem.log) >> $OUT/check.txt
(timeout 90 /tmp/t/ccaDeviceMemoryTest-mutant > $OUT/logs/mutant.log 2>&1; echo "mutant rc=$? (1 expected)"; grep FAIL $OUT/logs/mutant.log | head -4; tail -1 $OUT/logs/mutant.log) >> $OUT/check.txt
start=$(date +%s)
python3 -m pip install -q --no-build-isolation --no-deps -Cbuild-dir=/tmp/python-wheel \
  -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 . > $OUT/logs/python-build.log 2>&1
echo "python build rc=$? in $(( $(date +%s) - start )) s" >> $OUT/check.txt
(cd /tmp && timeout 200 python3 -m pytest -q -m gpu -rs -p no:cacheprovider "$root/python/tests") > $OUT/logs/python-gpu.log 2>&1
(echo "python GPU tests rc=$?"; tail -3 $OUT/logs/python-gpu.log) >> $OUT/check.txt
tar -C $OUT -czf $OUT/logs.tgz logs
