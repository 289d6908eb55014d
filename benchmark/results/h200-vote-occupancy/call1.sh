#!/usr/bin/env bash
# Call 1 (H200): the votes of the narrow dense table at more warps an SM,
# two binaries (benchmark/ab_compare.py): m = main (044571f: 256-thread
# blocks, 124 registers, two blocks an SM), p = 128-thread blocks at five an
# SM (96 registers, 24 bytes of spills; votes-128x5.patch). Full table,
# summed, m p p m. (Six blocks an SM at 80 registers was built too, but a
# third engine's binary would not fit the 64 MiB a call carries.)
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
X=/tmp/b/x
V=(--variant m="$X/build-gpu/benchmark/cca_benchmark" --variant p="$X/build-p5/benchmark/cca_benchmark"
)
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L "${V[@]}" --common "$C" --order "m p p m" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 2d-full-g4="--dimension 2 --size 8192 --connectivity full --g 4" \
  --set 3d-face-g4="--dimension 3 --size 512 --connectivity face --g 4"
python3 benchmark/ab_compare.py --logs $L "${V[@]}" --common "$C" --order "m p p m" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
# p's results against the CPU backend (its update-counting case expects
# main's 256-thread blocks and is meant to fail here).
timeout 30 $X/build-p5/test/engine/ccaEngineOracleTest oracle cuda > $OUT/p-oracle.log 2>&1
echo "p engine oracle cuda rc=$?: $(tail -n 1 $OUT/p-oracle.log)"
timeout 100 $X/build-p5/test/gpu/ccaCudaBackendTest > $OUT/p-backend.log 2>&1
echo "p backend rc=$?"; grep -E "^total|FAIL|update counting" $OUT/p-backend.log | head -12
