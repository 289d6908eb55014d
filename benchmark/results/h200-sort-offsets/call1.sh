#!/usr/bin/env bash
# Call 1 (H200): sortprobe.cu, built here with
#   nvcc -O3 -std=c++17 -arch=sm_90 -o sortprobe sortprobe.cu
# and carried: CUB's radix sort of (label, index) pairs with 64-bit and
# 32-bit counts, and onesweep policies with wider digits.
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
./.probe/sortprobe 2>&1 | tee $OUT/sortprobe.txt
