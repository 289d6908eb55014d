#!/usr/bin/env bash
# Call 1 (H200): main 112667a's GPU tests (db7f891 and 112667a never ran on
# the GPU), then ncu of every kernel at the g = 1 densities no profile
# covered: 8192^2 4- and 8-conn. d = 0.1-0.3, 512^3 6-conn. d = 0.2 and 0.4.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
M=/tmp/b/m/build-gpu
timeout 150 $M/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|strip" $L/backend.log | head -12
for c in face full; do for d in 0.1 0.2 0.3; do
  TOP=14 bash benchmark/ncu_kernel_map.sh $M/benchmark/cca_benchmark $L/ncu 2d-$c-d$d --outputs all \
    --dimension 2 --size 8192 --connectivity $c --g 1 --density $d
done; done
for d in 0.2 0.4; do
  TOP=14 bash benchmark/ncu_kernel_map.sh $M/benchmark/cca_benchmark $L/ncu 3d-face-d$d --outputs all \
    --dimension 3 --size 512 --connectivity face --g 1 --density $d
done
echo "ncu done at $SECONDS s"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $M/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $M/test/gpu/ccaCudaBackendTest --quick --cases 1 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
