#!/usr/bin/env bash
# Call 2 (H100): the byte rows' union-find (LinkByteRowsKernel) under
# fewer blocks a multiprocessor, so fewer spills: m = main 3c0465b (6 in
# volumes, 8 in planes: 40 and 32 registers), then binaries built from
# main with VolumeByteRowLinkBlocks / PlaneByteRowLinkBlocks 5 / 6, 4 / 5
# and 3 / 4. Then the 8192^2 all-on planes under other row blocks and
# fan-ins of main's union-find (--link-block-rows, --link-fan-in), then
# ncu of every variant's kernels at 26-conn. d = 0.5.
# Carry: .devcarry/gab2.tar.xz (r/cca_benchmark*, r/ccaCudaBackendTest).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab2.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b/r
timeout 330 python3 benchmark/ab_compare.py --logs $L/ab --variant m="$R/cca_benchmark" \
  --variant a="$R/cca_benchmark_v5p6" --variant b="$R/cca_benchmark_v4p5" --variant c="$R/cca_benchmark_v3p4" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --g 1" \
  --set 3d26-all="--dimension 3 --size 512 --connectivity full --outputs all" \
  --set 3d26-labels="--dimension 3 --size 512 --connectivity full --outputs labels" \
  --set 2d8-labels="--dimension 2 --size 8192 --connectivity full --outputs labels" \
  --set 2d8-all="--dimension 2 --size 8192 --connectivity full --outputs all" \
  --set 2d4-all="--dimension 2 --size 8192 --connectivity face --outputs all" \
  --order "m a b c c b a m" --per-image > $L/ab.txt 2>&1
echo "ab rc=$? at $SECONDS s"; grep -vE "^ +(face|full)" $L/ab.txt | head -80
B=$R/cca_benchmark
timeout 120 python3 benchmark/ab_compare.py --logs $L/allon --variant m="$B" \
  --variant r32="$B --link-block-rows 32" --variant r64="$B --link-block-rows 64" \
  --variant r256="$B --link-block-rows 256" --variant f64="$B --link-fan-in 64" \
  --variant r32f64="$B --link-block-rows 32 --link-fan-in 64" \
  --common "--labels-on-device --no-atomic-counts --warmup 2 --reps 11 --g 1 --density 1 --dimension 2 --size 8192 --connectivity both --outputs all" \
  --set allon="" --order "m r32 r64 r256 f64 r32f64 r32f64 f64 r256 r64 r32 m" > $L/allon.txt 2>&1
echo "allon rc=$? at $SECONDS s"; grep -vE "^ +(face|full)" $L/allon.txt | tail -30
for v in m:cca_benchmark a:cca_benchmark_v5p6 b:cca_benchmark_v4p5 c:cca_benchmark_v3p4; do
  TOP=6 bash benchmark/ncu_kernel_map.sh $R/${v#*:} $L/ncu ${v%%:*}-3d26-d0.5 --dimension 3 --size 512 --g 1 --density 0.5 --connectivity full --outputs all
done
echo "ncu done at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
