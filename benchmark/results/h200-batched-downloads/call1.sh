#!/usr/bin/env bash
# Call 1 (H200): where the middle masks' downloads wait. main (accd699),
# cca_e2e_benchmark --no-itk (the filter's Update() and the engine alone),
# then CUPTI timelines (timeline-injection.cpp of h200-host-waits) of
# 8192^2 g = 4, 512^3 g = 4 and 60000 balls, 3 repetitions each.
set -u
mkdir -p /tmp/i $OUT/logs && tar -C /tmp/i -xJf .devcarry/bench-bundle.tar.xz && tar -C /tmp/i -xf /tmp/i/build.tar
export LD_LIBRARY_PATH=/tmp/i/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
E=$(find /tmp/i -name cca_e2e_benchmark -type f | head -1)
M=random2d-g16,random2d-g4,random3d-g4,balls-60k,ct-face
for k in 1 2; do
  timeout 150 $E --no-itk --threads 16 --reps 7 --only $M > $OUT/logs/plain-$k.log 2>&1
  echo "plain $k rc=$? at $SECONDS s"
  grep -E "engine alone|mask read" $OUT/logs/plain-$k.log | sed 's/, kernels.*bound/; bound/'
done
for m in random2d-g4 random3d-g4 balls-60k; do
  CUDA_INJECTION64_PATH=$PWD/.devcarry/libtimeline.so TIMELINE_OUT=$OUT/timeline-$m.tsv timeout 120 $E --no-itk --threads 16 --reps 3 --only $m > $OUT/logs/timeline-$m.log 2>&1
  echo "timeline $m rc=$? at $SECONDS s"; grep -E "engine alone" $OUT/logs/timeline-$m.log | sed 's/, kernels.*bound/; bound/'
  xz -9 $OUT/timeline-$m.tsv
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
