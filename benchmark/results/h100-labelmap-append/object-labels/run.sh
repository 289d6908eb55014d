#!/usr/bin/env bash
# Session 19, call 4: the filter's object labels numbered in parallel in integers (B) against one thread in long double (A).
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/bb /tmp/e2eB && xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/bb -xf - && tar -xf /tmp/bb/build.tar && tar -C /tmp/e2eB -xJf .devcarry/e2eB.tar.xz || exit 1
export LD_LIBRARY_PATH=/tmp/bb/lib
A=build/benchmark/cca_e2e_benchmark; B=/tmp/e2eB/binB/cca_e2e_benchmark
M=random3d-g1,random2d-g1,random2d-g4,balls-60k
t0=$SECONDS
for run in A1 B1 B2 A2; do
  v=${run:0:1}; bin=$A; [ $v = B ] && bin=$B
  timeout 120 $bin --no-itk --threads 16 --reps 3 --only $M --json $L/$run.json > $L/$run.log 2>&1
  echo "$run at $((SECONDS-t0)) s: $(grep ours-cuda $L/$run.log | awk '{printf "%s %s (lm %s) ", $1, $4, $9}')"
done | tee $L/summary.txt
cd $OUT && tar -czf logs.tgz logs && rm -rf logs
