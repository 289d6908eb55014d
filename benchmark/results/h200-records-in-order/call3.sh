#!/usr/bin/env bash
# Call 3 (H200): the crossing entries' kernels with their loads out of the
# warps' loops, and the stored pairs' count of planes without the
# volumes' search (a template of its own: 22 registers, not 39), as p;
# pb the same with the count's blocks held to 8 a multiprocessor (32
# registers in volumes, 16 bytes of spills). Main 0e6e9be is m. ncu of
# the three kernels at d = 0.3, then the full table at g = 1, summed.
set -u
mkdir -p /tmp/b $OUT/ncu
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
M=/tmp/b/x/build-gpu/benchmark/cca_benchmark
P=/tmp/b/p/build-gpu/benchmark/cca_benchmark
PB=/tmp/b/pb/cca_benchmark
C="--labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density 0.3"
for v in m p pb; do
  case $v in m) B=$M;; p) B=$P;; pb) B=$PB;; esac
  for c in "3 512 face" "2 8192 face" "2 8192 full"; do
    set -- $c
    n=$v-${1}d-$3
    timeout 100 ncu --clock-control none --kernel-name regex:"CountPrecedingPairs|CrossingEntries" --metrics gpu__time_duration.sum \
      $B $C --dimension $1 --size $2 --connectivity $3 > $OUT/ncu/$n.txt 2>&1
    echo "== $n rc=$? at $SECONDS s"
    grep -E "^  [a-zA-Z].*Kernel|gpu__time" $OUT/ncu/$n.txt | sed -E 's/\(RunArrays.*|\(unsigned.*|\(T1.*//' | paste - - | awk '{print $NF, $2, $3}' | sort -k2 | uniq -c | head
  done
done
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant m="$M" --variant p="$P" --variant pb="$PB" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --order "m p p m"
python3 benchmark/ab_compare.py --logs $OUT/ab2 \
  --variant m="$M" --variant p="$P" --variant pb="$PB" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --order "m pb pb m"
tar -C $OUT -czf $OUT/logs.tgz ncu ab ab2 && rm -rf $OUT/ncu $OUT/ab $OUT/ab2
echo "done at $SECONDS s"
