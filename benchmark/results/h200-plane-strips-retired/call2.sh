#!/usr/bin/env bash
# Call 2 (H200): the pairs' count under face connectivity on a mask
# compares no labels for the runs of the face rows that share a column with
# the run (k) against call 1's j, full table, g = 1, j k k j: 8192^2
# 4-conn. and 512^3 6-conn.; ncu of CountPrecedingPairsKernel at d = 0.5 in
# both; then the full engine GPU tests on k (its build-gpu binaries). About
# 560 s.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
J=/tmp/b/j/build-gpu/benchmark/cca_benchmark
K=/tmp/b/k/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 1"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant j="$J" --variant k="$K" --common "$C" \
  --set 2d-face-g1-all="--dimension 2 --size 8192 --connectivity face" \
  --set 3d-face-g1-all="--dimension 3 --size 512 --connectivity face" --order "j k k j"
mkdir -p $OUT/logs/ncu
for v in j k; do
  for s in "2d:--dimension 2 --size 8192" "3d:--dimension 3 --size 512"; do
    n=${s%%:*}
    timeout 60 ncu --clock-control none -k regex:"CountPrecedingPairs" --metrics gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread --csv \
      /tmp/b/$v/build-gpu/benchmark/cca_benchmark --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
      --density 0.5 --connectivity face ${s#*:} > $OUT/logs/ncu/$n-$v.csv 2> $OUT/logs/ncu/$n-$v.err
    echo "ncu $n d=0.5 $v: $(grep '^"' $OUT/logs/ncu/$n-$v.csv | awk -F'","' '{printf "%s %s; ", $(NF-2), $NF}' | tr -d '"')"
  done
done
echo "== k: GPU tests"
bash scripts/engine-gpu-tests.sh /tmp/b/k/build-gpu $OUT/logs/tests-k
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
