#!/usr/bin/env bash
# Numbering climbs a thread (CCA_CLIMBS 1/2/4/8), one binary: checks, then labels-only benchmarks
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/ab && tar -C /tmp/ab -xJf .devcarry/exp18.tar.xz
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
B=/tmp/ab/bin
if [ "${CHECKS:-1}" = 1 ]; then
s=$SECONDS; timeout 150 $B/ccaCudaBackendTest > $L/gpu-all.log 2>&1; echo "gpu test rc=$? $((SECONDS-s))s: $(tail -1 $L/gpu-all.log)"
for c in 1 2 8; do s=$SECONDS; CCA_CLIMBS=$c timeout 60 $B/ccaCudaBackendTest --quick --algorithm Default > $L/gpu-q$c.log 2>&1; echo "gpu quick climbs=$c rc=$? $((SECONDS-s))s: $(tail -1 $L/gpu-q$c.log)"; done
s=$SECONDS; timeout 60 $B/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? $((SECONDS-s))s: $(tail -1 $L/devmem.log)"
s=$SECONDS; timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? $((SECONDS-s))s $(grep 'ERROR SUMMARY' $L/memcheck.log | tail -1)"
grep -h "ERROR SUMMARY" $L/memcheck.log > $L/sanitizers.txt; tail -5 $L/memcheck.log > $L/memcheck-tail.txt; grep "passed" $L/gpu-all.log > $L/gpu-all-summary.txt; rm -f $L/memcheck.log
fi
bench() { local d=$1 c=$2 n=$3 gsel=$4; local sz=8192; [ $d = 3 ] && sz=512; local f=$L/k$d-c$c-$n
  [ $SECONDS -gt ${STOP:-560} ] && { echo "skip $f"; return; }
  local extra=""; [ "$gsel" != all ] && extra="--g $gsel"
  CCA_CLIMBS=$c timeout 120 $B/cca_benchmark --dimension $d --size $sz --connectivity both --reps 5 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts $extra --json $f.json > $f.log 2>&1
  echo "${d}D c$c $n rc=$? at $SECONDS s: $(grep '^==' $f.log | sed 's/.*kernel \([0-9.]*\) G[a-z/]* (pixels\/summed time; \([0-9.]*\) mean.*memory <= \([0-9.]*\) bytes.*/\1 (\2) \3B/' | tr '\n' ' ')"
}
for d in 2 3; do bench $d 1 r1 1; bench $d 2 r1 1; bench $d 4 r1 1; bench $d 8 r1 1; done
for d in 3 2; do bench $d 8 r2 1; bench $d 4 r2 1; bench $d 2 r2 1; bench $d 1 r2 1; done
for d in 2 3; do bench $d 1 all all; bench $d 4 all all; done
tar -C $OUT -czf $OUT/logs.tgz logs
