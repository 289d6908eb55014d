#!/usr/bin/env bash
# Call 2 (H200): the kernel split by template (WriteByteLabelImageKernel<...,
# FromRuns>: rows of at least 2048 pixels and at most 32 runs made from
# their runs; narrower rows get a kernel without that path), binary N,
# against B (6be12c8), B N three times, 11 repetitions: all-foreground
# planes 2048^2 .. 8192^2, 8192^2 g = 4 and 16, 512^3 all foreground, g = 4
# and 16, full table; then the GPU tests, memcheck and racecheck. Logs in
# logs.tgz, this output in summary.txt.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
N=/tmp/b/build-gpu; xz -dc .devcarry/before/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt
P="--reps 11 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --connectivity both"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$N/benchmark/cca_benchmark $P --dimension 2 --size 8192 --g 0 > /dev/null 2>&1 # warm-up
for v in B1 N1 B2 N2 B3 N3; do
  X=$N/benchmark/cca_benchmark; [[ $v == B* ]] && X=/tmp/b/before
  for n in 2048 4096 8192; do
    timeout 20 $X $P --g 0 --dimension 2 --size $n --json $L/k2-$n-g0-$v.json > $L/k2-$n-g0-$v.log 2>&1; echo "2D $n g0 $v rc=$? at $SECONDS s: $(s $L/k2-$n-g0-$v.log)"
  done
  for g in 16 4; do
    timeout 40 $X $P --g $g --dimension 2 --size 8192 --json $L/k2-8192-g$g-$v.json > $L/k2-8192-g$g-$v.log 2>&1; echo "2D 8192 g$g $v rc=$? at $SECONDS s: $(s $L/k2-8192-g$g-$v.log)"
  done
  for g in 0 16 4; do
    timeout 40 $X $P --g $g --dimension 3 --size 512 --json $L/k3-512-g$g-$v.json > $L/k3-512-g$g-$v.log 2>&1; echo "3D 512 g$g $v rc=$? at $SECONDS s: $(s $L/k3-512-g$g-$v.log)"
  done
done
# The label image kernels of 512^3 all foreground under ncu: B, N (no runs'
# path compiled in at this width) and A (last call's kernel with the path
# at every width, taken here).
xz -dc .devcarry/all-widths/cca_benchmark.xz > /tmp/b/all-widths && chmod +x /tmp/b/all-widths
M=gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum
for v in B N A; do
  case $v in B) X=/tmp/b/before;; N) X=$N/benchmark/cca_benchmark;; A) X=/tmp/b/all-widths;; esac
  timeout 60 ncu --kernel-name regex:WriteByteLabelImage --launch-count 2 --metrics $M --csv $X --reps 1 --warmup 0 --outputs all --labels-on-device --connectivity face --dimension 3 --size 512 --g 0 > $L/ncu-3d-g0-$v.csv 2> $L/ncu-3d-g0-$v.err; echo "ncu 3D all foreground $v rc=$? at $SECONDS s"
  grep -E "duration|registers_per|limit|warps_active" $L/ncu-3d-g0-$v.csv | head -6 | awk -F'","' '{print $(NF-2), $NF}'
done
# Where 512^3 all foreground spends its kernel time (N): throughput, issue
# and occupancy of each kernel.
M2=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,smsp__inst_executed.sum
timeout 90 ncu --launch-skip 0 --launch-count 40 --metrics $M2 --csv $N/benchmark/cca_benchmark --reps 1 --warmup 0 --outputs all --labels-on-device --connectivity face --dimension 3 --size 512 --g 0 > $L/ncu-3d-g0-N-all.csv 2> $L/ncu-3d-g0-N-all.err; echo "ncu 3D all foreground, every kernel, rc=$? at $SECONDS s"
timeout 150 $N/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|wide rows" $L/backend.log | head -10
for suite in labels intensity selection large; do
  timeout 60 $N/test/engine/ccaFeatureGroupsTest $suite cuda > $L/groups-$suite.log 2>&1; echo "groups $suite cuda rc=$? at $SECONDS s"; tail -n 1 $L/groups-$suite.log
done
timeout 30 $N/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -n 1 $L/devmem.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|wide rows|ERROR SUMMARY" $L/memcheck.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/engine/ccaFeatureGroupsTest labels cuda > $L/groups-labels-memcheck.log 2>&1; echo "groups labels memcheck rc=$? at $SECONDS s"; grep -E "ERROR SUMMARY" $L/groups-labels-memcheck.log
for d in 2 3; do
  n=$([[ $d == 2 ]] && echo 2048 || echo 128)
  timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 $N/benchmark/cca_benchmark --reps 1 --warmup 0 --outputs all --connectivity both --dimension $d --size $n --g 0 > $L/racecheck-${d}d-g0.log 2>&1; echo "racecheck ${d}D $n all foreground rc=$? at $SECONDS s"; grep -E "RACECHECK SUMMARY" $L/racecheck-${d}d-g0.log
done
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|wide rows|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
