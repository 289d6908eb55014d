#!/usr/bin/env bash
# A (6815548) against B (run search blocks): GPU tests, sanitizers, labels-only A/B in two rounds
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/ab && tar -C /tmp/ab -xJf .devcarry/ab19.tar.xz
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
B=/tmp/ab/binB
if [ "${CHECKS:-1}" = 1 ]; then
s=$SECONDS; timeout 120 $B/ccaCudaBackendTest > $L/gpu-all.log 2>&1; echo "gpu test rc=$? $((SECONDS-s))s: $(grep -c passed $L/gpu-all.log) | $(tail -1 $L/gpu-all.log)"
s=$SECONDS; timeout 60 $B/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? $((SECONDS-s))s: $(tail -1 $L/devmem.log)"
s=$SECONDS; timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 $B/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? $((SECONDS-s))s $(grep 'ERROR SUMMARY' $L/memcheck.log | tail -1)"
s=$SECONDS; timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $B/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? $((SECONDS-s))s $(grep -E 'RACECHECK SUMMARY' $L/racecheck.log | tail -1)"
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $L/memcheck.log $L/racecheck.log > $L/sanitizers.txt; tail -5 $L/memcheck.log > $L/memcheck-tail.txt; grep "passed" $L/gpu-all.log > $L/gpu-all-summary.txt; rm -f $L/memcheck.log $L/racecheck.log
fi
bench() { local d=$1 out=$2 v=$3 n=$4; local sz=8192; [ $d = 3 ] && sz=512; local f=$L/k$d-$out-$v$n
  timeout 150 /tmp/ab/bin$v/cca_benchmark --dimension $d --size $sz --connectivity both --reps 5 --warmup 1 --outputs $out --labels-on-device --no-atomic-counts --json $f.json > $f.log 2>&1
  echo "${d}D $out $v$n rc=$? at $SECONDS s: $(grep '^==' $f.log | sed 's/.*kernel \([0-9.]*\) G[a-z/]* (pixels\/summed time; \([0-9.]*\) mean.*memory <= \([0-9.]*\) bytes.*/\1 (\2) \3B/' | tr '\n' ' ')"
}
[ "${WARM:-1}" = 1 ] && bench 2 labels B 0 # warm-up, discarded
for r in ${ROUNDS:-1 2}; do
  if [ $r = 1 ]; then bench 2 labels A $r; bench 2 labels B $r; bench 3 labels A $r; bench 3 labels B $r
  else bench 3 labels B $r; bench 3 labels A $r; bench 2 labels B $r; bench 2 labels A $r; fi
done
for o in ${ALL:-}; do bench 2 all A $o; bench 2 all B $o; bench 3 all B $o; bench 3 all A $o; done
tar -C $OUT -czf $OUT/logs.tgz logs
