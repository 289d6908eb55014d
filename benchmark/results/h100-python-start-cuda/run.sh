#!/bin/bash
# Session 22: start_cuda() in the Python package: its GPU tests and a fresh-process benchmark
root=$(pwd)
mkdir -p $OUT/logs
nvidia-smi -L > $OUT/logs/device.txt
start=$(date +%s)
python3 -m pip install -q --no-build-isolation --no-deps -Cbuild-dir=/tmp/python-wheel \
  -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 . > $OUT/logs/python-build.log 2>&1
echo "python build rc=$? in $(( $(date +%s) - start )) s" >> $OUT/check.txt
(cd /tmp && timeout 200 python3 -m pytest -q -m gpu -rs -p no:cacheprovider "$root/python/tests") > $OUT/logs/python-gpu.log 2>&1
(echo "python GPU tests rc=$?"; tail -1 $OUT/logs/python-gpu.log) >> $OUT/check.txt
(cd /tmp && timeout 100 python3 -m pytest -q -rs -p no:cacheprovider "$root/python/tests/test_startup.py") > $OUT/logs/python-startup.log 2>&1
(echo "start-up tests rc=$?"; tail -1 $OUT/logs/python-startup.log) >> $OUT/check.txt
(cd benchmark && timeout 200 python3 python_start_up.py --processes 5 --other-ms 0 300) > $OUT/logs/start-up.log 2>&1
echo "benchmark rc=$?" >> $OUT/check.txt
cp $OUT/logs/start-up.log $OUT/
tar -C $OUT -czf $OUT/logs.tgz logs
