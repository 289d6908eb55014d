#!/usr/bin/env bash
# Call 4 (H200): a 2D image's planar table entries widened on the host by
# AVX2 moves (src/NarrowFeatures.cpp, n) instead of field by field (o,
# the build of call 3). The engine's download of a plane's table is staged
# and widened as it arrives, so the host's widening can bound it (call 3:
# 8192^2 g = 4, 96 MB in 5.48 ms, 17.5 GB/s; g = 1, 728 MB in 28.3 ms).
# cca_e2e_benchmark --no-itk on the 2D masks and two 3D controls (their
# 160-byte entries were vector-widened already), o n n o, 5 repetitions;
# then n's ccaCudaBackendTest. Carry: the slim bench bundle of n and
# .devcarry/extra.tar.xz (o's stripped cca_e2e_benchmark, n's backend test).
set -u
mkdir -p /tmp/bundle /tmp/x $OUT/logs
xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/bundle -xf - && tar -C . -xf /tmp/bundle/build.tar
xz -dc .devcarry/extra.tar.xz | tar -C /tmp/x -xf -
export LD_LIBRARY_PATH=/tmp/bundle/lib
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
M=random2d-g16,random2d-g4,random2d-g1,random3d-g4,ct-face
declare -A BIN=([o]=/tmp/x/e2e_old [n]=build-bench/benchmark/cca_e2e_benchmark)
k=0
for v in o n n o; do
  k=$((k + 1))
  timeout 100 ${BIN[$v]} --no-itk --threads 16 --reps 5 --only $M > $OUT/logs/e2e-$k-$v.log 2>&1
  echo "$k $v rc=$? at $SECONDS s"
  grep -E "engine alone" $OUT/logs/e2e-$k-$v.log | sed 's/: up.*down/: down/; s/, kernels.*//'
done
timeout 120 /tmp/x/ccaCudaBackendTest > $OUT/logs/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"
grep -E "^total|FAIL" $OUT/logs/backend.log | head -10
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
