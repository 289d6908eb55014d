#!/usr/bin/env bash
# Call 7: after the review's refactor (the placing pass ranks a run with
# RankInWord, the word-level half of RankOfBit, cuda/BitRanks.cuh; the
# same arithmetic): ccaCudaBackendTest and memcheck --quick.
set -u
mkdir -p $OUT /tmp/b && xz -dc .devcarry/gab5.xz > /tmp/b/ccaCudaBackendTest && chmod +x /tmp/b/ccaCudaBackendTest
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
timeout 90 /tmp/b/ccaCudaBackendTest > $OUT/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $OUT/backend.log | head -5
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/b/ccaCudaBackendTest --quick > $OUT/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $OUT/memcheck.log
