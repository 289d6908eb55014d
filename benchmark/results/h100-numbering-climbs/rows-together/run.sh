#!/usr/bin/env bash
# A (5c06e41) against B (26-connected volumes: the slice passes search their three rows together): checks of B, labels-only A/B (3D two rounds, 2D one), 3D full table one round
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/ab && tar -C /tmp/ab -xJf .devcarry/ab18d.tar.xz
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
B=/tmp/ab/binB
s=$SECONDS; timeout 150 $B/ccaCudaBackendTest > $L/gpu-all.log 2>&1; echo "gpu test rc=$? $((SECONDS-s))s: $(tail -1 $L/gpu-all.log)"
s=$SECONDS; timeout 60 $B/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? $((SECONDS-s))s: $(tail -1 $L/devmem.log)"
s=$SECONDS; timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? $((SECONDS-s))s $(grep 'ERROR SUMMARY' $L/memcheck.log | tail -1)"
s=$SECONDS; timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $B/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? $((SECONDS-s))s $(grep -E 'RACECHECK SUMMARY' $L/racecheck.log | tail -1)"
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $L/memcheck.log $L/racecheck.log > $L/sanitizers.txt; tail -5 $L/memcheck.log > $L/memcheck-tail.txt; grep "passed" $L/gpu-all.log > $L/gpu-all-summary.txt; rm -f $L/memcheck.log $L/racecheck.log
sumline() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[a-z/]* (pixels\/summed time; \([0-9.]*\) mean.*memory <= \([0-9.]*\) bytes.*/\1 (\2) \3B/' | tr '\n' ' '; }
bench() { local d=$1 out=$2 v=$3 n=$4; local sz=8192; [ $d = 3 ] && sz=512; local f=$L/k$d-$out-$v$n
  [ $SECONDS -gt 570 ] && { echo "skip $f"; return; }
  local extra="--labels-on-device"; [ $out = all ] && extra=""
  timeout 100 /tmp/ab/bin$v/cca_benchmark --dimension $d --size $sz --connectivity both --reps 5 --warmup 1 --outputs $out $extra --no-atomic-counts --json $f.json > $f.log 2>&1
  echo "${d}D $out $v$n rc=$? at $SECONDS s: $(sumline $f.log)"; }
timeout 60 $B/cca_benchmark --dimension 2 --size 8192 --g 4 --connectivity both --reps 3 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts > $L/warmup.log 2>&1
bench 3 labels A 1; bench 3 labels B 1; bench 3 labels B 2; bench 3 labels A 2
bench 2 labels A 1; bench 2 labels B 1
bench 3 all B 1; bench 3 all A 1
tar -C $OUT -czf $OUT/logs.tgz logs
