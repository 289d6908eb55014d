#!/usr/bin/env bash
# Session 21, second call: the small masks' LabelMap with glibc's heaps trimmed (default) or kept (MALLOC_TRIM_THRESHOLD_, MALLOC_TOP_PAD_), A B A B, no ITK; then both with ITK
set -u
L=$OUT/logs; mkdir -p $L
[ -d /tmp/e2e ] || { mkdir -p /tmp/e2e && tar -C /tmp/e2e -xJf .devcarry/e2e21.tar.xz; }
export LD_LIBRARY_PATH=/tmp/e2e/lib
E=/tmp/e2e/build/benchmark/cca_e2e_benchmark
M=ct-face,ct-full,balls-60k,random2d-g16
KEEP="env MALLOC_TRIM_THRESHOLD_=17179869184 MALLOC_TOP_PAD_=268435456"
for r in 1 2; do
  timeout 60 $E --threads 16 --only $M --reps 7 --no-itk > $L/default-$r.log 2>&1; echo "default $r rc=$? at $SECONDS s"
  timeout 60 $KEEP $E --threads 16 --only $M --reps 7 --no-itk > $L/keep-$r.log 2>&1; echo "keep $r rc=$? at $SECONDS s"
done
for f in default-1 keep-1 default-2 keep-2; do echo "$f:"; grep -h "ours-cuda" $L/$f.log; done
timeout 120 $KEEP $E --threads 16 --only ct-face,ct-full --reps 7 > $L/itk-keep.log 2>&1; echo "itk keep rc=$? at $SECONDS s"
timeout 120 $E --threads 16 --only ct-face,ct-full --reps 7 > $L/itk-default.log 2>&1; echo "itk default rc=$? at $SECONDS s"
grep -h "ours-cuda\|  itk " $L/itk-keep.log $L/itk-default.log
tar -C $OUT -czf $OUT/logs.tgz logs
