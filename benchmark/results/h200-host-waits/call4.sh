#!/usr/bin/env bash
# Call 4 (H200): the GPU's timeline (CUPTI, timeline-injection.cpp) of
# call 2's N on single images: where the GPU idles between kernels.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
ls /usr/local/cuda/lib64/libcupti* /usr/local/cuda/extras/CUPTI/lib64/ 2>&1 | head -3
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
K="$B/benchmark/cca_benchmark --reps 3 --warmup 1 --labels-on-device --no-atomic-counts"
for c in "all 2 8192 4 full 0.3" "all 2 8192 0 face 1" "all 3 512 0 face 1" "all 3 512 4 face 0.3" "labels 3 512 1 face 0.3" "labels 2 8192 1 full 0.5"; do
  set -- $c
  n=$1-$2d-g$4-$5-d$6
  TIMELINE_OUT=$OUT/timeline-$n.tsv CUDA_INJECTION64_PATH=$PWD/.devcarry/libtimeline.so timeout 60 $K --outputs $1 --dimension $2 --size $3 --g $4 --connectivity $5 --density $6 > $L/$n.log 2>&1
  echo "$n rc=$? at $SECONDS s: $(grep -E '^Default' $L/$n.log | head -1) rows $(wc -l < $OUT/timeline-$n.tsv 2>/dev/null)"
  timeout 60 $K --outputs $1 --dimension $2 --size $3 --g $4 --connectivity $5 --density $6 > $L/$n-plain.log 2>&1
  echo "  without the timeline: $(grep -E '^Default' $L/$n-plain.log | head -1)"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
