#!/usr/bin/env bash
# Session 21: (1) host probe: packing and reading the CT-sized mask on 1-16 threads; (2) the small masks' LabelMap with glibc trimming its heaps (default) or keeping them (MALLOC_TRIM_THRESHOLD_/MALLOC_TOP_PAD_), A B A B, then with ITK; (3) the Python package's tests (torch label image from the pool)
set -u
root=$(pwd)
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/e2e && tar -C /tmp/e2e -xJf .devcarry/e2e21.tar.xz
export LD_LIBRARY_PATH=/tmp/e2e/lib
E=/tmp/e2e/build/benchmark/cca_e2e_benchmark
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt; nproc >> $L/device.txt
/tmp/e2e/packprobe > $L/packprobe.log 2>&1; echo "packprobe rc=$?"; cat $L/packprobe.log
M=ct-face,ct-full,balls-60k,random2d-g16
keep() { env MALLOC_TRIM_THRESHOLD_=17179869184 MALLOC_TOP_PAD_=268435456 "$@"; }
timeout 60 $E --threads 16 --only ct-face --reps 3 --no-itk > $L/warmup.log 2>&1
for r in 1 2; do
  timeout 60 $E --threads 16 --only $M --reps 7 --no-itk > $L/default-$r.log 2>&1; echo "default $r rc=$? at $SECONDS s"
  timeout 60 keep $E --threads 16 --only $M --reps 7 --no-itk > $L/keep-$r.log 2>&1; echo "keep $r rc=$? at $SECONDS s"
done
grep -h "ours-cuda" $L/default-*.log $L/keep-*.log
timeout 120 $E --threads 16 --only ct-face,ct-full --reps 7 > $L/itk-default.log 2>&1; echo "itk default rc=$? at $SECONDS s"
timeout 120 keep $E --threads 16 --only ct-face,ct-full --reps 7 > $L/itk-keep.log 2>&1; echo "itk keep rc=$? at $SECONDS s"
