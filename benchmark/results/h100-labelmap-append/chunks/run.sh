#!/usr/bin/env bash
# Session 19, call 3: LabelMap chunks per maker (4, the builder's, against 16 and 64) on the masks of few objects; then issue 10's table again.
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/bb && xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/bb -xf - && tar -xf /tmp/bb/build.tar || exit 1
export LD_LIBRARY_PATH=/tmp/bb/lib
B=build/benchmark
t0=$SECONDS
for r in 1 2 3; do for c in 4 16 64; do
  CCA_CHUNKS_PER_MAKER=$c timeout 100 $B/cca_e2e_benchmark --no-itk --threads 16 --reps 5 --only ct-face,ct-full,balls-60k,random2d-g16 > $L/chunks-$c-$r.log 2>&1
  echo "chunks $c round $r at $((SECONDS-t0)) s: $(grep ours-cuda $L/chunks-$c-$r.log | awk '{printf "%s %s/%s ", $1, $4, $9}')"
done; done | tee $L/chunks-summary.txt
ENGINE_COMMIT="3rd commit of session 19 (LabelMap appended), second run" BUILD=build STEPS="e2e" OUT=$L/e2e timeout 330 benchmark/run-on-gpu-machine.sh 320 > $L/e2e-run.log 2>&1
grep -E "ours-cuda" $L/e2e/e2e.log
cd $OUT && tar -czf logs.tgz logs && rm -rf logs
