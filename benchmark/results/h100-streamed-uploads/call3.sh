#!/usr/bin/env bash
# Call 3: issue 10's table through ITK on the masks whose bits stream (4 to
# 32 MiB), streamed (s, the default since the commit after 8f4e180) and by
# regions (r, --streamed-uploads never), one binary (8f4e180's bench bundle,
# which takes the flag either way), s r s: cca_e2e_benchmark --threads 16,
# best of 3, ITK's BinaryImageToShapeLabelMapFilter in the same process,
# every object checked against ITK's.
set -u
mkdir -p /tmp/k $OUT && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/k -xf - && tar -C /tmp/k -xf /tmp/k/build.tar
export LD_LIBRARY_PATH=/tmp/k/lib
B=/tmp/k/build-gpu/benchmark/cca_e2e_benchmark
M=ct-face,ct-full,balls-60k,random3d-g4,random2d-g16,random2d-g4
k=0
for v in on never on; do
  k=$((k + 1))
  timeout 100 $B --threads 16 --only $M --streamed-uploads $v --json $OUT/e2e-$k-$v.json > $OUT/e2e-$k-$v.log 2>&1
  echo "== $k $v rc=$? at $SECONDS s, $(grep -h '^uploads streamed' $OUT/e2e-$k-$v.log)"
  grep -E "ours-cuda|engine alone [0-9]|with that read|MISMATCH|pinned bandwidth" $OUT/e2e-$k-$v.log | sed 's/  */ /g'
done
