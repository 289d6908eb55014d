#!/usr/bin/env bash
# Call 4 (H200): the committed code (the unpacking's launch moved into
# UploadStage::Unpack after call 3): engine oracle and large images on
# CUDA, ccaCudaBackendTest, compute-sanitizer memcheck --quick.
set -u
mkdir -p /tmp/f $OUT/logs
tar -C /tmp/f -xJf .devcarry/final.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
G=/tmp/f/f
timeout 30 $G/test/engine/ccaEngineOracleTest oracle cuda > $OUT/logs/oracle.log 2>&1
echo "engine oracle cuda rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/oracle.log)"
timeout 15 $G/test/engine/ccaEngineOracleTest large cuda > $OUT/logs/large.log 2>&1
echo "engine large cuda rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/large.log)"
timeout 90 $G/test/gpu/ccaCudaBackendTest > $OUT/logs/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $OUT/logs/backend.log | head -5
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $OUT/logs/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $OUT/logs/memcheck.log
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
