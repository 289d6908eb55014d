#!/bin/bash
# Session 20 device check: the host image pool (tests, sanitizers, e2e A/B).
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/bb && tar -xJf .devcarry/pool-bundle.tar.xz -C /tmp/bb && tar -xf /tmp/bb/build.tar -C .
export LD_LIBRARY_PATH=/tmp/bb/lib
nvidia-smi -L > $L/device.txt; git log --oneline -1 >> $L/device.txt 2>/dev/null
run() { local name=$1 limit=$2; shift 2; local t0=$(date +%s.%N); timeout $limit "$@" > $L/$name.log 2>&1; local rc=$?; echo "== $name rc=$rc in $(echo "$(date +%s.%N) - $t0" | bc) s: $*" | tee -a $L/summary.txt; }
run pool-cpu 60 build/test/engine/ccaHostImageMemoryTest
run pool-gpu 120 build/test/gpu/ccaHostImagePoolTest
run itk-hostimages 120 build/test/itk/CudaLabelStatisticsTestDriver itkCudaLabelStatisticsBehaviourTest hostimages
run devmem 120 build/test/gpu/ccaDeviceMemoryTest
run e2e-large-pool 150 build/benchmark/cca_e2e_benchmark --threads 16 --only large-labels --reps 5
run e2e-large-nopool 150 build/benchmark/cca_e2e_benchmark --threads 16 --only large-labels --reps 5 --no-host-image-pool
run backend-quick 150 build/test/gpu/ccaCudaBackendTest --quick
run memcheck-pool ${MC:-150} compute-sanitizer --tool memcheck --error-exitcode 9 build/test/gpu/ccaHostImagePoolTest
run racecheck-pool ${RC:-100} compute-sanitizer --tool racecheck --error-exitcode 9 build/test/gpu/ccaHostImagePoolTest
tail -3 $L/*.log > $L/tails.txt
tar czf $OUT/logs.tgz -C $OUT logs
cat $L/summary.txt
