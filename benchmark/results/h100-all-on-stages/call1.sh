#!/usr/bin/env bash
# Call 1 (H100): where the all-on images' time goes, main 3c697c5's
# cca_benchmark: the milestones' stages (reps 11), the GPU's timeline
# (CUPTI, h200-host-waits/timeline-injection.cpp: kernels and idle gaps)
# and ncu of every kernel, for the 8192^2 and 512^3 all-on images, full
# table and labels only.
# Carry: .devcarry/gab1.tar.xz (sb/benchmark/cca_benchmark, libtimeline.so).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab1.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/b/sb/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --density 1"
for o in all labels; do
  for d in "2 8192" "3 512"; do
    set -- $d
    timeout 60 $B $C --outputs $o --dimension $1 --size $2 --connectivity both --warmup 2 --reps 11 > $L/stages-$o-$1d.log 2>&1
    echo "stages $o ${1}D rc=$? at $SECONDS s"; grep -E "^Default|^algo" $L/stages-$o-$1d.log
  done
done
for c in "all 2 8192 face" "all 2 8192 full" "all 3 512 face" "all 3 512 full" "labels 2 8192 face" "labels 3 512 face"; do
  set -- $c
  n=$1-$2d-$4
  TIMELINE_OUT=$L/timeline-$n.tsv CUDA_INJECTION64_PATH=/tmp/b/libtimeline.so timeout 60 $B $C --outputs $1 --dimension $2 --size $3 --connectivity $4 --warmup 1 --reps 3 > $L/tl-$n.log 2>&1
  echo "== timeline $n rc=$? at $SECONDS s"
  python3 benchmark/results/h200-host-waits/timeline_gaps.py $L/timeline-$n.tsv | tail -4; python3 benchmark/results/h100-all-on-stages/timeline_kernels.py $L/timeline-$n.tsv
done
for c in "all 2 8192 face" "all 2 8192 full" "all 3 512 face" "all 3 512 full"; do
  set -- $c
  TOP=30 timeout 90 bash benchmark/ncu_kernel_map.sh $B $L ncu-$1-$2d-$4 --density 1 --outputs $1 --dimension $2 --size $3 --connectivity $4
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
