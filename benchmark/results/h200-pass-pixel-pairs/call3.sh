#!/usr/bin/env bash
# Call 3 (H200): call 2's binary (the committed code), the full engine GPU
# tests with memcheck and racecheck; ccaCudaBackendTest's largest
# component checks now share one loop (LargestChoiceChecks).
set -u
mkdir -p /tmp/b $OUT/logs
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
