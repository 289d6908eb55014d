#!/usr/bin/env bash
# Session 22: the final tree's GPU check (ctest, sanitizers, demo)
mkdir -p $OUT/logs
BUILD=build OUT=$OUT/logs timeout 540 bash scripts/gpu-machine-check.sh > $OUT/check.txt 2>&1
echo "check rc=$?" >> $OUT/check.txt
tar -C $OUT -czf $OUT/logs.tgz logs
