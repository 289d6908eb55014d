#!/usr/bin/env bash
# Call 3 (H200): q = the final binary: p (call 2) with the resident grid
# only where the runs average at most 2 a row (else a warp a row, as
# before: p's fixed shares cost 512^3 6-conn. g = 1 1.2 %), and
# ResidentBlocks asked of CUDA once a kernel. q's backend GPU test and
# memcheck (call 2 ran the full suite with racecheck on p, whose kernel
# is q's); n q q n against main (ad99e37) on the all-on images and the
# g = 1 and g = 16 sets that p touched; ncu of every kernel of the 3D
# all-on image; then ours and every labels-only peer in one command
# (benchmark/ours_and_peers.sh). Carry: .devcarry/gpu.tar.xz, .peers.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
B=/tmp/b/q/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version,clocks.max.sm --format=csv,noheader >> $L/device.txt
cat $L/device.txt
timeout 120 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -10
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
ab() { # logs, common arguments, then the sets
  local logs=$1 common=$2; shift 2
  python3 benchmark/ab_compare.py --logs $L/$logs --variant n="/tmp/b/n/build-gpu/benchmark/cca_benchmark" \
    --variant q="$B/benchmark/cca_benchmark" --common "$common" "$@" --order "n q q n" --per-image
  echo "$logs done at $SECONDS s"
}
ab on "--labels-on-device --no-atomic-counts --warmup 2 --reps 20 --outputs all --g 0" \
  --set 3d-face-on="--dimension 3 --size 512 --connectivity face" \
  --set 3d-full-on="--dimension 3 --size 512 --connectivity full" \
  --set 2d-face-on="--dimension 2 --size 8192 --connectivity face"
ab grains "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g16="--dimension 3 --size 512 --connectivity full --g 16" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1"
TOP=12 bash benchmark/ncu_kernel_map.sh $B/benchmark/cca_benchmark $L/ncu 3d-face-on --outputs all --dimension 3 --size 512 --connectivity face --g 0
bash benchmark/ours_and_peers.sh $B $L/peers $OUT
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
