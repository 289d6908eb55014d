#!/usr/bin/env bash
# Call 4: what calls 2-3's command had no time left for: the Python
# package (the cp312 sm_90 wheel of this session's code) and its GPU
# tests; then the probe (4 GB on 16 threads, two modes, after 8 s idle
# and at once).
set -uo pipefail
mkdir -p $OUT/call4 && exec > >(tee $OUT/call4/log.txt) 2>&1
nvidia-smi -L; nproc; root=$PWD
SECONDS=0
python3 -m pip install -q --no-deps .devcarry/cuda_label_statistics-*.whl > $OUT/call4/python-install.log 2>&1
echo "wheel install rc=$? at $SECONDS s"
(cd /tmp && timeout 150 python3 -m pytest -q -m gpu -rs -p no:cacheprovider "$root/python/tests" > $OUT/call4/python-gpu.log 2>&1)
echo "python GPU tests rc=$? at $SECONDS s"
tail -4 $OUT/call4/python-gpu.log
uname -r; free -g; cat /sys/kernel/mm/transparent_hugepage/enabled
for f in /sys/bus/virtio/drivers/virtio_balloon/virtio*/features; do [ -e "$f" ] && echo "balloon features: $(cat $f)"; done
D=benchmark/results/h200-fresh-widening
g++ -O2 -std=c++17 -pthread $D/fresh-widening-probe.cpp -o /tmp/fwp || exit 1
for mode in widen-stream prefault-stream; do
  sleep 8; echo "-- idle 8 s"; timeout 40 /tmp/fwp $mode 4 16
  echo "-- at once"; timeout 40 /tmp/fwp $mode 4 16
done
echo "done at $SECONDS s"
