#!/usr/bin/env bash
# Call 1 (H100): m = main 38ddeac; d = next-dense-volume-blocks (a dense
# volume's first union-find pass in blocks of 32 rows when its rows hold
# 16-64 runs and the sampled foreground is >= 0.5); s = next-strip-rows-as-bits
# (strips and tubes always read rows as bits). Per set: m d s s d m.
# Carry: .devcarry/gabA.tar.xz (r/cca_benchmark, r/d/..., r/s/...).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gabA.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b/r
AB="python3 benchmark/ab_compare.py --variant m=$R/cca_benchmark --variant d=$R/d/cca_benchmark --variant s=$R/s/cca_benchmark --per-image"
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
run() { # name, timeout, common, sets...
  local n=$1 t=$2 c=$3; shift 3
  timeout $t $AB --logs $L/$n --common "$C $c" "$@" --order "m d s s d m" > $L/$n.txt 2>&1
  echo "$n rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/$n.txt | head -80
}
run v6 150 "--dimension 3 --size 512 --connectivity face" \
  --set 3d6-g1-all="--outputs all --g 1" --set 3d6-g4-all="--outputs all --g 4"
run v26 150 "--dimension 3 --size 512 --connectivity full --g 1" \
  --set 3d26-g1-all="--outputs all" --set 3d26-g1-labels="--outputs labels"
run p8 150 "--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 2d8-g1-all="--outputs all" --set 2d8-g1-labels="--outputs labels"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
