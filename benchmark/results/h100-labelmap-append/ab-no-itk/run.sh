#!/usr/bin/env bash
# Session 19, call 1: LabelMap insertion appended vs AddLabelObject, same binaries.
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/bb && xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/bb -xf - && tar -xf /tmp/bb/build.tar || exit 1
export LD_LIBRARY_PATH=/tmp/bb/lib
B=build/benchmark
{ nvidia-smi; nproc; free -g; cat /sys/kernel/mm/transparent_hugepage/enabled; } > $L/machine.txt 2>&1
t0=$SECONDS
for r in 1 2; do for a in "" --add-label-object; do
  $B/cca_label_objects_benchmark --objects 11400000 --threads 15 --grow-heaps --insert $a
  $B/cca_label_objects_benchmark --objects 300000 --threads 15 --grow-heaps --insert $a
done; done > $L/insertion.log 2>&1
echo "insertion $((SECONDS-t0)) s" >> $L/times.txt
M=ct-face,ct-full,balls-60k,random3d-g4,random3d-g1,random2d-g16,random2d-g4,random2d-g1
for r in 1 2; do for a in "" --add-label-object; do
  n=e2e-noitk-$r${a:+-add}
  timeout 200 $B/cca_e2e_benchmark --no-itk --threads 16 --reps 3 --only $M $a --json $L/$n.json > $L/$n.log 2>&1
  echo "$n $((SECONDS-t0)) s" >> $L/times.txt
done; done
cd $OUT && tar -czf logs.tgz logs && rm -rf logs
