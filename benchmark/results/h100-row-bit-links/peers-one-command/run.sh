#!/usr/bin/env bash
# final code: A = checks + full table; B = labels only + the peers in one command
set -u
MODE=${1:-A}
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/f && tar -C /tmp/f -xJf .devcarry/final16.tar.xz
B=/tmp/f/bin; K=$B/cca_benchmark
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
if [ $MODE = A ]; then
  s=$SECONDS; timeout 90 $B/ccaCudaBackendTest > $L/gpu-all.log 2>&1; echo "gpu test rc=$? $((SECONDS-s))s: $(tail -1 $L/gpu-all.log)"
  s=$SECONDS; timeout 60 $B/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? $((SECONDS-s))s: $(tail -1 $L/devmem.log)"
  s=$SECONDS; timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? $((SECONDS-s))s $(grep 'ERROR SUMMARY' $L/memcheck.log | tail -1)"
  s=$SECONDS; timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $B/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? $((SECONDS-s))s $(grep -E 'RACECHECK SUMMARY' $L/racecheck.log | tail -1)"
  grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $L/memcheck.log $L/racecheck.log > $L/sanitizers.txt; rm -f $L/memcheck.log $L/racecheck.log
  for d in 2 3; do sz=8192; [ $d = 3 ] && sz=512
    timeout 130 $K --dimension $d --size $sz --connectivity both --reps 5 --warmup 1 --outputs all --labels-on-device --no-atomic-counts --json $L/k$d-all.json > $L/k$d-all.log 2>&1
    echo "full ${d}D rc=$?: $(grep '^==' $L/k$d-all.log | sed 's/.*kernel \([0-9.]*\) G[a-z/]* (pixels\/summed time; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' ')"
  done
fi
if [ $MODE = B ]; then
  for d in 2 3; do sz=8192; [ $d = 3 ] && sz=512
    timeout 130 $K --dimension $d --size $sz --connectivity both --reps 5 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts --json $L/k$d-auto.json > $L/k$d-auto.log 2>&1
    echo "labels ${d}D rc=$? at $SECONDS s: $(grep '^==' $L/k$d-auto.log | sed 's/.*kernel \([0-9.]*\) G.*/\1/' | tr '\n' ' ')"
  done
  PEERS_BUDGET_S=$((560 - SECONDS)) OUT=$L bash .peers/run.sh > $L/peers-run.log 2>&1; echo "peers rc=$? at $SECONDS s"; tail -3 $L/peers-run.log
fi
tar -C $OUT -czf $OUT/logs.tgz logs
