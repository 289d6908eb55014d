#!/usr/bin/env bash
# Call 2 (H200): the shared row blocks' rows joined without a barrier
# between rows (CCA_NO_ROW_BARRIERS=1, a temporary switch: n) against one
# after another (b), in a plane's byte row blocks and a volume's row
# blocks. ncu of the union-find launches and the numbering; summed, b n n b.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio
ncu_run() { # label env dimension size conn density
  echo "== ncu $1: --dimension $3 --size $4 --connectivity $5 d=$6, full table"
  env $2 ncu --clock-control none --kernel-name regex:"Link|NumberComponents" --launch-count 3 --metrics $M \
    $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
    --density $6 --dimension $3 --size $4 --connectivity $5 2>&1 |
    grep -E "  void|gpu__time|inst_executed|rror" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
}
for d in 0.5 0.7; do
  ncu_run barriers "CCA_X=1" 2 8192 face $d
  ncu_run no-barriers "CCA_NO_ROW_BARRIERS=1" 2 8192 face $d
done
ncu_run barriers "CCA_X=1" 3 512 face 0.5
ncu_run no-barriers "CCA_NO_ROW_BARRIERS=1" 3 512 face 0.5
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
V=(--variant b="$X" --variant n="env CCA_NO_ROW_BARRIERS=1 $X")
python3 benchmark/ab_compare.py --logs $OUT/logs/ab2 "${V[@]}" --common "$C --outputs all" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" --order "b n n b"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab3 "${V[@]}" --common "$C --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" --order "b n n b"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab3l "${V[@]}" --common "$C --outputs labels" \
  --set 3d-face-g1-labels="--dimension 3 --size 512 --connectivity face --g 1" --order "b n n b"
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
