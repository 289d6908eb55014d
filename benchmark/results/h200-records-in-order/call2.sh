#!/usr/bin/env bash
# Call 2 (H200): the GPU's timeline (CUPTI, h200-host-waits'
# timeline-injection.cpp) of main 0e6e9be's full table at g = 1, one image
# each, warm-up and one timed run: which of the two streams' work after
# the numbering (the sort on the run's stream; the label image and the
# stored pairs' count beside it) ends last, and what the GPU does until
# the votes. libtimeline.so is h200-host-waits/timeline-injection.cpp, built
# here: g++ -O2 -shared -fPIC ... -lcupti (its header says how).
set -u
mkdir -p /tmp/b $OUT/t
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
K="/tmp/b/x/build-gpu/benchmark/cca_benchmark --reps 1 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --g 1"
for c in "3 512 face 0.3" "3 512 face 0.5" "3 512 face 0.7" "3 512 full 0.2" "2 8192 face 0.3" "2 8192 face 0.5" "2 8192 face 0.7" "2 8192 full 0.3"; do
  set -- $c
  n=${1}d-$3-d$4
  TIMELINE_OUT=$OUT/t/$n.tsv CUDA_INJECTION64_PATH=$PWD/.devcarry/libtimeline.so timeout 60 $K --dimension $1 --size $2 --connectivity $3 --density $4 > $OUT/t/$n.log 2>&1
  echo "$n rc=$? at $SECONDS s: $(grep -E '^Default' $OUT/t/$n.log | head -1)"
done
tar -C $OUT -cJf $OUT/timelines.tar.xz t && rm -rf $OUT/t
