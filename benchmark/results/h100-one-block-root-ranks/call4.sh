#!/usr/bin/env bash
# Call 4 (H100): scans of up to 10,240 items in one block
# (ExclusiveSumInOneBlockKernel, CUB's BlockScan) instead of CUB's device
# scan (two kernels). r = 61801e5 (the roots ranked by one block), s =
# the change; r s s r, full table (all-on images, small images) and labels
# only (the all-on plane); a warm run's timeline of the 256^2 plane
# (d = 0.5, g = 4); then s's GPU tests (backend, memcheck, racecheck).
# Carry: .devcarry/t4.tar.xz (r/cca_benchmark, s/: cca_benchmark,
# ccaCudaBackendTest; libtimeline.so).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/t4.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b
AB="python3 benchmark/ab_compare.py --variant r=$R/r/cca_benchmark --variant s=$R/s/cca_benchmark"
C="--labels-on-device --no-atomic-counts"
timeout 150 $AB --logs $L/ab --common "$C --warmup 2 --reps 11" \
  --set 2d-all-on="--outputs all --dimension 2 --size 8192 --connectivity both --density 1" \
  --set 3d-all-on="--outputs all --dimension 3 --size 512 --connectivity both --density 1" \
  --set 2d-all-on-labels="--outputs labels --dimension 2 --size 8192 --connectivity both --density 1" \
  --set 2d-256="--outputs all --dimension 2 --size 256 --connectivity both" \
  --set 2d-1024-g16="--outputs all --dimension 2 --size 1024 --connectivity both --g 16" \
  --set 3d-32="--outputs all --dimension 3 --size 32 --connectivity both" --order "r s s r" > $L/ab.txt 2>&1
echo "ab rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/ab.txt | head -40
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
for v in r s; do
  TIMELINE_OUT=$L/timeline-256-$v.tsv CUDA_INJECTION64_PATH=$R/libtimeline.so timeout 60 $R/$v/cca_benchmark $C --outputs all --dimension 2 --size 256 --connectivity face --g 4 --density 0.5 --warmup 1 --reps 3 > $L/tl-256-$v.log 2>&1
  echo "== timeline 256^2 g 4 d 0.5 $v rc=$? at $SECONDS s"
  python3 benchmark/results/h100-all-on-stages/timeline_kernels.py $L/timeline-256-$v.tsv | tail -32
done
T=$R/s/ccaCudaBackendTest
timeout 90 $T > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|small counts" $L/backend.log | head -16
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 130 compute-sanitizer --tool racecheck --error-exitcode 9 $T --quick --cases 12 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
