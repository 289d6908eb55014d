#!/usr/bin/env bash
# Call 2 (H200): the final code. Labels only, 2D and 3D, both connectivities
# (the README's rows), the tubes per density (3D 26-conn., always / never),
# the GPU tests and memcheck, then the labels-only peers on the same images,
# all in one command; everything packed in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version,clocks.max.sm --format=csv,noheader >> $L/device.txt
K="$B/benchmark/cca_benchmark --reps 5 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts"
$K --dimension 2 --size 8192 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for d in 2 3; do sz=8192; [ $d = 3 ] && sz=512
  timeout 130 $K --dimension $d --size $sz --connectivity both --json $L/k$d-auto.json > $L/k$d-auto.log 2>&1
  echo "labels ${d}D rc=$? at $SECONDS s: $(s $L/k$d-auto.log)"
done
for m in always never; do
  timeout 60 $K --dimension 3 --size 512 --connectivity full --strip-labeling $m --json $L/k3-$m.json > $L/k3-$m.log 2>&1
  echo "3D 26 $m rc=$? at $SECONDS s: $(s $L/k3-$m.log)"
done
timeout 120 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "strip labeling|^total|FAIL" $L/backend.log | head -8
timeout 60 $B/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -1 $L/devmem.log
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
PEERS_BUDGET_S=$((575 - SECONDS)) OUT=$L bash .peers/run.sh > $L/peers-run.log 2>&1; echo "peers rc=$? at $SECONDS s"; tail -3 $L/peers-run.log
python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-auto.json $L/k3-auto.json > $L/table.md 2> $L/table.err; echo "table rc=$?"
cp $L/table.md $OUT/; tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
grep -E "^\| ours|best peer" $OUT/table.md
