#!/usr/bin/env bash
# Call 5: is the LabelMap of many objects bound by its one inserting
# thread? cca_label_objects_benchmark makes N label objects on 15 threads,
# then inserts them on one (--insert: the builder's InsertBlock, appended
# to the map's container), each timed apart; and the end-to-end benchmark
# without ITK gives the filter's LabelMap times for the same object counts,
# where making and inserting overlap. main 3f955b5 (build-gpu),
# benchmark/make-bench-bundle.sh --slim.
set -u
mkdir -p /tmp/b && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; nproc
xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/b -xf - && tar -C /tmp/b -xf /tmp/b/build.tar
export LD_LIBRARY_PATH=/tmp/b/lib
B=/tmp/b/build-gpu/benchmark
SECONDS=0
for n in 11438801 278623 53640; do
  for r in 1 2; do
    timeout 120 $B/cca_label_objects_benchmark --objects $n --threads 15 --grow-heaps --insert
  done
done
echo "objects done at $SECONDS s"
timeout 300 $B/cca_e2e_benchmark --no-itk --reps 3 --only random3d-g1,random2d-g4,random2d-g1,balls-60k,random3d-g4 > $OUT/e2e.log 2>&1
echo "e2e rc=$? at $SECONDS s"
grep -v "^\s*$" $OUT/e2e.log | tail -40
