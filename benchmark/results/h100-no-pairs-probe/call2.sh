#!/usr/bin/env bash
# Call 2: the GPU test suite of main (13e2521; no device code changed this
# session), compute-sanitizer memcheck and racecheck on its subset, the
# program's demo: scripts/gpu-machine-check.sh on build-gpu's bundle.
set -u
BUILD=build-gpu bash scripts/gpu-machine-check.sh > $OUT/summary.txt 2>&1
cat $OUT/summary.txt
