#!/usr/bin/env bash
# Call 5 (H200): issue 10's table on n (the idle device states):
# STEPS="e2e e2e-program e2e-large", ITK 5.2.1's filter on 16 threads in
# the same process, a new filter of ours a repetition.
set -u
mkdir -p $OUT
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
OUT=$OUT/table BUILD=build-gpu STEPS="e2e e2e-program e2e-large" bash benchmark/run-on-gpu-machine.sh 400 > /dev/null 2>&1
echo "table rc=$? at $SECONDS s"
cat $OUT/table/e2e-table.md 2>/dev/null | head -30
grep -E "total|read|write|analysis|waiting|other" $OUT/table/e2e-program.log 2>/dev/null | head -16
grep -E "repetition|ours-c|mask read|engine alone" $OUT/table/e2e-large.log 2>/dev/null | head -16
echo "done at $SECONDS s"
