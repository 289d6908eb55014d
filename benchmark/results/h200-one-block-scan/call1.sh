#!/usr/bin/env bash
# Call 1 (H200): N, scans of at most 16384 values by one block
# (cuda/OneBlockScan.cuh: a plane's row counts), against B, main (888acad).
# Full table, 8192^2 planes g = 0 (all foreground), 16, 4, and labels only
# g = 1, both connectivities, B N B N; 512^3 g = 4 once each. Then labels
# only of 6-connected volumes at g = 1 with the row-bit links always,
# never and by the rule; N's timeline (CUPTI) on 8192^2 g = 4 d = 0.3; the
# GPU tests, memcheck and racecheck on N.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
N=/tmp/b/build-gpu; xz -dc .devcarry/before-main/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$N/benchmark/cca_benchmark --reps 3 --warmup 1 --labels-on-device --outputs all --dimension 2 --size 8192 --g 4 > /dev/null 2>&1 # warm-up
for v in B1 N1 B2 N2; do
  X=$N/benchmark/cca_benchmark; [[ $v == B* ]] && X=/tmp/b/before
  for c in "all 2 8192 0" "all 2 8192 16" "all 2 8192 4" "labels 2 8192 1"; do
    set -- $c
    n=$1-$2d-g$4-$v
    timeout 60 $X --reps 11 --warmup 1 --labels-on-device --no-atomic-counts --connectivity both --outputs $1 --dimension $2 --size $3 --g $4 --json $L/$n.json > $L/$n.log 2>&1
    echo "$1 ${2}D g$4 $v rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
for v in B N; do
  X=$N/benchmark/cca_benchmark; [[ $v == B* ]] && X=/tmp/b/before
  timeout 60 $X --reps 5 --warmup 1 --labels-on-device --no-atomic-counts --connectivity both --outputs all --dimension 3 --size 512 --g 4 > $L/all-3d-g4-$v.log 2>&1; echo "all 3D g4 $v rc=$? at $SECONDS s: $(s $L/all-3d-g4-$v.log)"
done
for r in always never auto always never auto; do
  timeout 60 $N/benchmark/cca_benchmark --reps 5 --warmup 1 --labels-on-device --no-atomic-counts --connectivity face --outputs labels --dimension 3 --size 512 --g 1 --row-bit-links $r > $L/rowbits-$r.log 2>&1; echo "labels 3D face g1 row-bit links $r rc=$? at $SECONDS s: $(s $L/rowbits-$r.log)"
done
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
TIMELINE_OUT=$OUT/timeline-all-2d-g4-full-d0.3.tsv CUDA_INJECTION64_PATH=$PWD/.devcarry/libtimeline.so timeout 60 $N/benchmark/cca_benchmark --reps 3 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --dimension 2 --size 8192 --g 4 --connectivity full --density 0.3 > $L/timeline.log 2>&1
echo "timeline rc=$? at $SECONDS s"; python3 benchmark/results/h200-host-waits/timeline_gaps.py $OUT/timeline-all-2d-g4-full-d0.3.tsv > $OUT/timeline-all-2d-g4-full-d0.3.gaps.txt; xz -9 $OUT/timeline-all-2d-g4-full-d0.3.tsv
timeout 30 $N/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; grep -E "FAIL|exclusive sums" $L/devmem.log | head -8; tail -n 1 $L/devmem.log
timeout 150 $N/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -10
for suite in labels intensity selection; do
  timeout 60 $N/test/engine/ccaFeatureGroupsTest $suite cuda > $L/groups-$suite.log 2>&1; echo "groups $suite cuda rc=$? at $SECONDS s"; tail -n 1 $L/groups-$suite.log
done
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/gpu/ccaDeviceMemoryTest > $L/devmem-memcheck.log 2>&1; echo "devmem memcheck rc=$? at $SECONDS s"; grep -E "ERROR SUMMARY" $L/devmem-memcheck.log; tail -n 1 $L/devmem-memcheck.log
timeout 40 compute-sanitizer --tool racecheck --error-exitcode 3 $N/benchmark/cca_benchmark --reps 1 --warmup 0 --outputs all --connectivity both --dimension 2 --size 2048 --g 4 > $L/racecheck-2d.log 2>&1; echo "racecheck 2D 2048 g4 rc=$? at $SECONDS s"; grep -E "RACECHECK SUMMARY" $L/racecheck-2d.log
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
