#!/usr/bin/env bash
# The events queued across the warp in LinkByteRowsKernel too (e), every
# pass that joins byte rows from their bits in global memory: a plane's
# borders after its byte row blocks, 8-connected planes' strips, volumes'
# tubes and slices. c = main 6de0cf4 (the byte row blocks already queue
# theirs). ncu of the kernel's launches at 8192^2 d = 0.5; summed, c e e c;
# the quick GPU tests on e; volumes last, while the call's time lasts.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
C=/tmp/b/c/build-gpu/benchmark/cca_benchmark
E=/tmp/b/e/build-gpu/benchmark/cca_benchmark
M=gpu__time_duration.sum,smsp__thread_inst_executed_per_inst_executed.ratio
for conn in full face; do
  for v in c e; do
    B=$C; [ $v = e ] && B=$E
    echo "== ncu 8192^2 $conn d=0.5 full table, $v: LinkByteRowsKernel's launches (us)"
    ncu --clock-control none --kernel-name regex:"LinkByteRowsKernel" --launch-count 12 --metrics $M \
      $B --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
      --density 0.5 --dimension 2 --size 8192 --connectivity $conn 2>&1 | grep -E "gpu__time|thread_inst|rror" | tr -s ' ' | tr '\n' ';'
    echo
  done
done
C2="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-2d --variant c="$C" --variant e="$E" --common "$C2" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1 --outputs all" \
  --set 2d-full-g1-labels="--dimension 2 --size 8192 --connectivity full --g 1 --outputs labels" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1 --outputs all" --order "c e e c"
echo "== e: GPU tests (--quick)"
bash scripts/engine-gpu-tests.sh --quick /tmp/b/e/build-gpu $OUT/logs/tests
for set in "3d-full-g1-labels:full" "3d-face-g1-labels:face"; do
  if [ $SECONDS -gt 470 ]; then echo "${set%%:*}: no time left"; continue; fi
  python3 benchmark/ab_compare.py --logs $OUT/logs/ab-${set%%:*} --variant c="$C" --variant e="$E" --common "$C2" \
    --set ${set%%:*}="--dimension 3 --size 512 --connectivity ${set##*:} --g 1 --outputs labels" --order "c e e c"
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
