#!/usr/bin/env bash
# Session 21, third call: A (HEAD) against B (region uploads in at least 4 pieces a region), small masks, A B A B; B's GPU tests and sanitizers
set -u
L=$OUT/logs; mkdir -p $L
[ -d /tmp/e2e ] || { mkdir -p /tmp/e2e && tar -C /tmp/e2e -xJf .devcarry/e2e21.tar.xz; }
mkdir -p /tmp/e2eB && tar -C /tmp/e2eB -xJf .devcarry/e2e21B.tar.xz
export LD_LIBRARY_PATH=/tmp/e2e/lib
A=/tmp/e2e/build/benchmark/cca_e2e_benchmark; B=/tmp/e2eB/B/cca_e2e_benchmark
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
M=ct-face,ct-full,balls-60k,random2d-g16
timeout 60 $B --threads 16 --only ct-face --reps 3 --no-itk > $L/warmup.log 2>&1
for r in 1 2 3; do
  timeout 60 $A --threads 16 --only $M --reps 7 --no-itk > $L/A-$r.log 2>&1; echo "A $r rc=$? at $SECONDS s"
  timeout 60 $B --threads 16 --only $M --reps 7 --no-itk > $L/B-$r.log 2>&1; echo "B $r rc=$? at $SECONDS s"
done
for f in A-1 B-1 A-2 B-2 A-3 B-3; do echo "$f:"; grep -h "ours-cuda\|engine alone" $L/$f.log | grep -A1 "ct-face\|ct-full" | grep -v "^--"; done
timeout 120 $B --threads 16 --only ct-face,ct-full,balls-60k --reps 7 > $L/itk-B.log 2>&1; echo "itk B rc=$? at $SECONDS s"
grep -h "ours-cuda\|  itk " $L/itk-B.log
T=/tmp/e2eB/B
s=$SECONDS; timeout 200 $T/ccaCudaBackendTest > $L/gpu-all.log 2>&1; echo "gpu test rc=$? $((SECONDS-s))s: $(tail -1 $L/gpu-all.log)"
s=$SECONDS; timeout 60 $T/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? $((SECONDS-s))s: $(tail -1 $L/devmem.log)"
s=$SECONDS; timeout 60 $T/ccaHostImagePoolTest > $L/pool.log 2>&1; echo "pool rc=$? $((SECONDS-s))s: $(tail -1 $L/pool.log)"
s=$SECONDS; timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $T/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? $((SECONDS-s))s $(grep 'ERROR SUMMARY' $L/memcheck.log | tail -1)"
s=$SECONDS; timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $T/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? $((SECONDS-s))s $(grep -E 'RACECHECK SUMMARY' $L/racecheck.log | tail -1)"
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $L/memcheck.log $L/racecheck.log > $L/sanitizers.txt; tail -5 $L/memcheck.log > $L/memcheck-tail.txt; grep "passed" $L/gpu-all.log > $L/gpu-all-summary.txt; rm -f $L/memcheck.log $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs
