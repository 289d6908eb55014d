#!/bin/bash
# Session 21: the Python package's label images from the host image pool.
root=$(pwd)
mkdir -p $OUT/logs
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/logs/gpu.txt 2>&1
start=$(date +%s)
python3 -m pip install -q --no-build-isolation --no-deps -Cbuild-dir=/tmp/python-wheel \
  -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 . > $OUT/logs/python-build.log 2>&1
echo "python build rc=$? in $(( $(date +%s) - start )) s"
(cd /tmp && timeout 200 python3 -m pytest -q -m gpu -rs -p no:cacheprovider "$root/python/tests") > $OUT/logs/python-gpu.log 2>&1
echo "python GPU tests rc=$?"; tail -3 $OUT/logs/python-gpu.log
(cd /tmp && timeout 100 python3 -m pytest -q -rs -p no:cacheprovider "$root/python/tests/test_host_image_memory.py") > $OUT/logs/python-pool.log 2>&1
echo "pool tests rc=$?"; tail -3 $OUT/logs/python-pool.log
timeout 150 python3 benchmark/python_label_images.py --calls 5 --rounds 2 2>&1 | tee $OUT/logs/bench.log
timeout 80 python3 benchmark/python_label_images.py --calls 4 --rounds 1 --settle 2>&1 | tee $OUT/logs/bench-settled.log
tar -C $OUT -czf $OUT/logs.tgz logs
