#!/usr/bin/env bash
# Call 3 (H200): call 2's N (this session's code) with the labels-only peers
# in the same command: ours labels only and full table, 2D and 3D, both
# connectivities (reps 5), then .peers/run.sh on the same images; then the
# racecheck that call 2 ran out of time for, and racecheck of the
# device-memory test (Read's kernel). Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version,clocks.max.sm --format=csv,noheader >> $L/device.txt
K="$B/benchmark/cca_benchmark --reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
$K --outputs labels --dimension 2 --size 8192 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for o in labels all; do
  timeout 60 $K --outputs $o --dimension 2 --size 8192 --connectivity both --json $L/k2-$o.json > $L/k2-$o.log 2>&1
  echo "$o 2D rc=$? at $SECONDS s: $(s $L/k2-$o.log)"
  timeout 90 $K --outputs $o --dimension 3 --size 512 --connectivity both --json $L/k3-$o.json > $L/k3-$o.log 2>&1
  echo "$o 3D rc=$? at $SECONDS s: $(s $L/k3-$o.log)"
done
PEERS_BUDGET_S=$((330 - SECONDS)) OUT=$L bash .peers/run.sh > $L/peers-run.log 2>&1; echo "peers rc=$? at $SECONDS s"; tail -2 $L/peers-run.log
for o in labels all; do
  python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-$o.json $L/k3-$o.json > $OUT/table-$o.md 2> $L/table-$o.err; echo "table $o rc=$?"
done
grep -E "^\| ours|best peer" $OUT/table-*.md
timeout 20 compute-sanitizer --tool racecheck --error-exitcode 3 $B/test/gpu/ccaDeviceMemoryTest > $L/devmem-racecheck.log 2>&1; echo "devmem racecheck rc=$? at $SECONDS s"; grep -E "RACECHECK SUMMARY" $L/devmem-racecheck.log; tail -n 1 $L/devmem-racecheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
