#!/usr/bin/env bash
# Call 1: how the H200 machine's host writes a first 64-bit label image into
# fresh memory. fresh-widening-probe.cpp (compiled there) writes 18.8 GB on
# 16 threads in each mode twice: after 8 s idle (memory the guest freed
# long enough ago to have been handed back to the hypervisor, if it does
# that) and at once after the run before (memory just freed).
set -uo pipefail
mkdir -p $OUT/call1 && exec > >(tee $OUT/call1/log.txt) 2>&1
nvidia-smi -L; nproc; uname -r; free -g
cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag
ls /sys/bus/virtio/drivers/ 2>&1 | tr '\n' ' '; echo
for f in /sys/bus/virtio/drivers/virtio_balloon/virtio*/features; do [ -e "$f" ] && echo "balloon features: $(cat $f)"; done
grep -E "^(thp_fault_alloc|thp_fault_fallback|compact_stall|pgfault) " /proc/vmstat
D=benchmark/results/h200-fresh-widening
g++ -O2 -std=c++17 -pthread $D/fresh-widening-probe.cpp -o /tmp/fwp || exit 1
for mode in widen-stream touch-stream prefault-stream; do
  sleep 8; echo "-- idle 8 s"; /tmp/fwp $mode 18.8 16
  echo "-- at once"; /tmp/fwp $mode 18.8 16
done
grep -E "^(thp_fault_alloc|thp_fault_fallback|compact_stall|pgfault) " /proc/vmstat
echo done
