#!/usr/bin/env bash
# Call 4 (H200): the Python package built here with CUDA (arch 90), its GPU
# tests, then label_shape_statistics with a host label image call after
# call (python_attributes_during_copy.py): the shape attributes computed
# while the engine copies the label image.
set -u
root=$PWD; mkdir -p $OUT/logs
exec > >(tee $OUT/summary.txt) 2>&1
start=$(date +%s)
python3 -m pip install -q --no-build-isolation --no-deps -Cbuild-dir=/tmp/python-wheel \
  -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 . > $OUT/logs/python-build.log 2>&1
echo "python build rc=$? in $(( $(date +%s) - start )) s"
(cd /tmp && timeout 200 python3 -m pytest -q -m gpu -rs -p no:cacheprovider "$root/python/tests") > $OUT/logs/python-gpu.log 2>&1
echo "python GPU tests rc=$? at $SECONDS s"; tail -3 $OUT/logs/python-gpu.log
(cd /tmp && timeout 150 python3 "$root/benchmark/results/h200-objects-during-copy/python_attributes_during_copy.py" --calls 6)
echo "rc=$? at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs
