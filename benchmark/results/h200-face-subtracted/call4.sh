#!/usr/bin/env bash
# Call 4 (H200): the committed code's quick GPU tests (the backend's test,
# memcheck, racecheck): after call 2 the neighbour rows' searches were
# folded into one visitor (VisitNeighbourRuns, cuda/PrecedingPairs.cuh),
# the same PTX but for register names. Pack: the stripped
# ccaCudaBackendTest under /tmp/b/n/build-gpu.
set -u
mkdir -p /tmp/b $OUT && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
bash scripts/engine-gpu-tests.sh --quick /tmp/b/n/build-gpu $OUT/logs
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
