#!/bin/bash
# Session 20 device check 4: the label image deferred while the LabelMap is built; tests, sanitizers, e2e A/B in order B A B A.
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/bb && tar -xJf .devcarry/pool-bundle.tar.xz -C /tmp/bb && tar -xf /tmp/bb/build.tar -C .
export LD_LIBRARY_PATH=/tmp/bb/lib
nvidia-smi -L > $L/device.txt
run() { local name=$1 limit=$2; shift 2; local t0=$(date +%s); timeout $limit "$@" > $L/$name.log 2>&1; local rc=$?; echo "== $name rc=$rc in $(( $(date +%s) - t0 )) s: $*" | tee -a $L/summary.txt; }
run pool-cpu 60 build/test/engine/ccaHostImageMemoryTest
run pool-gpu 120 build/test/gpu/ccaHostImagePoolTest
run itk-hostimages 120 build/test/itk/CudaLabelStatisticsTestDriver itkCudaLabelStatisticsBehaviourTest hostimages
E="build/benchmark/cca_e2e_benchmark --threads 16 --only large-labels --reps 5"
run e2e-1-nopool 150 $E --no-host-image-pool
run e2e-2-pool 150 $E
run e2e-3-pool 150 $E
run backend-quick 150 build/test/gpu/ccaCudaBackendTest --quick
run devmem 120 build/test/gpu/ccaDeviceMemoryTest
run memcheck-pool 150 compute-sanitizer --tool memcheck --error-exitcode 9 build/test/gpu/ccaHostImagePoolTest
run racecheck-pool 220 compute-sanitizer --tool racecheck --error-exitcode 9 build/test/gpu/ccaHostImagePoolTest
grep -h -E 'repetition|engine alone|ours-c' $L/e2e-*.log > $L/e2e-summary.txt
tar czf $OUT/logs.tgz -C $OUT logs
cat $L/summary.txt
