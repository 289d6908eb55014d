#!/usr/bin/env bash
# Block labeling: lines a thread in the first-pixel and label image kernels (CCA_OFFER_LINES, CCA_LABEL_LINES); numbering climbs 1 vs 8 at every g
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/ab && tar -C /tmp/ab -xJf .devcarry/exp18.tar.xz
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
B=/tmp/ab/bin
s=$SECONDS; timeout 150 $B/ccaCudaBackendTest > $L/gpu-all.log 2>&1; echo "gpu test rc=$? $((SECONDS-s))s: $(tail -1 $L/gpu-all.log)"
for v in "1 1" "2 4" "8 1"; do set -- $v; s=$SECONDS; CCA_OFFER_LINES=$1 CCA_LABEL_LINES=$2 timeout 60 $B/ccaCudaBackendTest --quick --algorithm Default > $L/gpu-q$1$2.log 2>&1; echo "gpu quick offer=$1 label=$2 rc=$? $((SECONDS-s))s: $(grep 'block labeling' $L/gpu-q$1$2.log) | $(tail -1 $L/gpu-q$1$2.log)"; done
s=$SECONDS; timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? $((SECONDS-s))s $(grep 'ERROR SUMMARY' $L/memcheck.log | tail -1)"
s=$SECONDS; timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $B/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? $((SECONDS-s))s $(grep -E 'RACECHECK SUMMARY' $L/racecheck.log | tail -1)"
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $L/memcheck.log $L/racecheck.log > $L/sanitizers.txt; tail -5 $L/memcheck.log > $L/memcheck-tail.txt; grep "passed" $L/gpu-all.log > $L/gpu-all-summary.txt; rm -f $L/memcheck.log $L/racecheck.log
sumline() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[a-z/]* (pixels\/summed time; \([0-9.]*\) mean.*memory <= \([0-9.]*\) bytes.*/\1 (\2) \3B/' | tr '\n' ' '; }
blk() { local o=$1 lb=$2 n=$3; local f=$L/b3-o$o-l$lb-$n
  [ $SECONDS -gt 560 ] && { echo "skip $f"; return; }
  CCA_OFFER_LINES=$o CCA_LABEL_LINES=$lb timeout 60 $B/cca_benchmark --dimension 3 --size 512 --connectivity full --g 1 --reps 5 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts --json $f.json > $f.log 2>&1
  echo "3D full g1 offer$o label$lb $n rc=$? at $SECONDS s: $(sumline $f.log)"; }
for v in "1 1" "4 1" "4 2" "8 2" "4 4" "2 2"; do blk $v r1; done
for v in "2 2" "4 4" "8 2" "4 2" "4 1" "1 1"; do blk $v r2; done
bench() { local d=$1 c=$2 n=$3; local sz=8192; [ $d = 3 ] && sz=512; local f=$L/k$d-c$c-$n
  [ $SECONDS -gt 560 ] && { echo "skip $f"; return; }
  CCA_CLIMBS=$c timeout 100 $B/cca_benchmark --dimension $d --size $sz --connectivity both --reps 5 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts --json $f.json > $f.log 2>&1
  echo "${d}D c$c $n rc=$? at $SECONDS s: $(sumline $f.log)"; }
bench 3 8 a1; bench 3 1 a1; bench 2 8 a1; bench 2 1 a1; bench 2 1 a2; bench 2 8 a2; bench 3 1 a2; bench 3 8 a2
tar -C $OUT -czf $OUT/logs.tgz logs
