#!/usr/bin/env bash
# Call 8: call 6's ShapeLabelObject rows ran after the default rows in
# each process; here either goes first (cca_e2e_benchmark --no-itk
# --shape-objects or --shape-objects-first), A B B A, best of 3 each, on
# the masks with many objects, where the LabelMap is most of Update().
set -u
mkdir -p /tmp/b $OUT/logs && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; nproc
xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/b -xf - && tar -C /tmp/b -xf /tmp/b/build.tar
export LD_LIBRARY_PATH=/tmp/b/lib
B=/tmp/b/build-gpu/benchmark
SECONDS=0
k=0
for v in after first first after; do
  k=$((k + 1))
  flag=--shape-objects; [ $v = first ] && flag=--shape-objects-first
  timeout 120 $B/cca_e2e_benchmark --no-itk --threads 16 $flag \
    --only balls-60k,random3d-g4,random2d-g4,random2d-g1,random3d-g1 > $OUT/logs/$k-$v.log 2>&1
  echo "$k $v rc=$? at $SECONDS s"
  grep -E "^(balls|random)" $OUT/logs/$k-$v.log | awk '{printf "  %-14s %-11s Update %8s ms  LabelMap %8s ms\n", $1, $2, $4, $9}'
done
cd $OUT && tar czf logs.tgz logs && rm -rf logs
