#!/usr/bin/env bash
# Session 21, fourth call: the e2e benchmark's bound with the mask's host read, issue 10's table with ITK (16 threads)
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/e2e && tar -C /tmp/e2e -xJf .devcarry/e2e21.tar.xz
mkdir -p /tmp/e2eC && tar -C /tmp/e2eC -xJf .devcarry/e2e21C.tar.xz
export LD_LIBRARY_PATH=/tmp/e2e/lib
E=/tmp/e2eC/C/cca_e2e_benchmark
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
timeout 60 $E --threads 16 --only ct-face --reps 3 --no-itk > $L/warmup.log 2>&1
timeout 500 $E --threads 16 --only ct-face,ct-full,balls-60k,random3d-g4,random2d-g16,random2d-g4 --reps 5 --json $L/e2e.json > $L/e2e.log 2>&1; echo "e2e rc=$? at $SECONDS s"
grep -v "^ *$" $L/e2e.log | tail -30
tar -C $OUT -czf $OUT/logs.tgz logs
