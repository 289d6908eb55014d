#!/usr/bin/env bash
# Call 4 (H100): 512^3 26-conn. g = 4 full table fell from 91.1 (main
# 3c0465b, h100-byte-row-spills call 1's command) to 84.1 Gvox/s (call 3,
# s). o = 3c0465b, m = 38ddeac, s = this record's change; each also with
# the strip labeling, the block labeling or the row-bit links off, to see
# which path lost. One set, the order below, then back.
# Carry: .devcarry/gabD.tar.xz (r/o/cca_benchmark, r/cca_benchmark, r/s/cca_benchmark).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gabD.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b/r
V=()
for b in o:$R/o/cca_benchmark m:$R/cca_benchmark; do
  n=${b%%:*}; p=${b#*:}
  V+=(--variant "$n=$p" --variant "${n}S=$p --strip-labeling never" --variant "${n}B=$p --block-labeling never" --variant "${n}R=$p --row-bit-links never")
done
V+=(--variant "s=$R/s/cca_benchmark")
timeout 280 python3 benchmark/ab_compare.py --logs $L/ab "${V[@]}" --per-image \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --dimension 3 --size 512 --connectivity full --g 4 --outputs all" \
  --set 3d26-g4-all="" --order "o m s oS mS oB mB oR mR mR oR mB oB mS oS s m o" > $L/ab.txt 2>&1
echo "ab rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/ab.txt | head -80
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
