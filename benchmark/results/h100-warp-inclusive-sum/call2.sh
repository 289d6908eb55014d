#!/usr/bin/env bash
# Call 2 (H100): issue 13's one-command table on main f5cbb15 (ours with
# labels only and with the full table, then the labels-only peers on the
# same images), and the Python package's GPU tests from a CPython 3.12
# sm_90 wheel of the extension split into files of one job each.
# Carry: .devcarry/t6.tar.xz (build-gpu/benchmark/cca_benchmark), the
# wheel .devcarry/*.whl, .peers, .whl.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/t6.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .devcarry/*.whl || echo "wheel install failed"
root=$PWD
(cd /tmp && PYTHONPATH=/tmp/site timeout 150 python3 -m pytest -q -m gpu -rs -p no:cacheprovider "$root/python/tests" > $L/python-gpu.log 2>&1)
echo "python GPU tests rc=$? at $SECONDS s"; tail -8 $L/python-gpu.log
PEERS_BUDGET_S=300 bash benchmark/ours_and_peers.sh /tmp/b/build-gpu $L $OUT/tables
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
