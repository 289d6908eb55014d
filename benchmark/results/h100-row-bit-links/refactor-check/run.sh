#!/usr/bin/env bash
# refactored final (InclusivePairScan, RowPairLane): GPU tests, sanitizers, labels and full table 2D
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/m && tar -C /tmp/m -xJf .devcarry/mend16.tar.xz
B=/tmp/m/bin
nvidia-smi -L > $L/device.txt
s=$SECONDS; timeout 120 $B/ccaCudaBackendTest > $L/gpu-all.log 2>&1; echo "gpu test rc=$? $((SECONDS-s))s: $(tail -1 $L/gpu-all.log)"
s=$SECONDS; timeout 60 $B/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? $((SECONDS-s))s: $(tail -1 $L/devmem.log)"
s=$SECONDS; timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 $B/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? $((SECONDS-s))s $(grep 'ERROR SUMMARY' $L/memcheck.log | tail -1)"
s=$SECONDS; timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $B/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? $((SECONDS-s))s $(grep -E 'RACECHECK SUMMARY' $L/racecheck.log | tail -1)"
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $L/memcheck.log $L/racecheck.log > $L/sanitizers.txt; rm -f $L/memcheck.log $L/racecheck.log; tail -3 $L/gpu-all.log > $L/gpu-all-tail.txt; rm $L/gpu-all.log
for out in labels all; do f=$L/k2-$out
  timeout 150 $B/cca_benchmark --dimension 2 --size 8192 --connectivity both --reps 5 --warmup 1 --outputs $out --labels-on-device --no-atomic-counts --json $f.json > $f.log 2>&1
  echo "2D $out rc=$? at $SECONDS s: $(grep '^==' $f.log | sed 's/.*kernel \([0-9.]*\) G[a-z/]* (pixels\/summed time; \([0-9.]*\) mean.*memory <= \([0-9.]*\) bytes.*/\1 (\2) \3B/' | tr '\n' ' ')"
done
tar -C $OUT -czf $OUT/logs.tgz logs
