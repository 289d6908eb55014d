#!/usr/bin/env bash
# Call 2 (H200): the choices call 1 measured, made by the engine
# (LabelStage::LinksByRowBits: a plane's table under face connectivity
# joins its runs from the rows' foreground bits from a sampled foreground
# fraction of 0.15 on; HostSequence::JoinsRunsByStrips: a plane's table
# under full connectivity joins its runs through the strips from 0.45 on),
# against main's choices in one binary: o = --row-bit-links never
# --strip-labeling never (what main takes for the table in planes),
# n = the new default. Full table, summed, o n n o; then the GPU tests.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
X=/tmp/b/x
B=$X/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "o n n o" \
  --variant o="$B --row-bit-links never --strip-labeling never" --variant n="$B" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
bash scripts/engine-gpu-tests.sh $X/build-gpu $OUT/tests
