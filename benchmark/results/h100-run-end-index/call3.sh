#!/usr/bin/env bash
# Call 3: the candidate (c: the run end index only where rows hold many
# runs, a volume's slices in one level of 512) against main 77d0106 (m),
# and c with main's fan-in (c64: --link-fan-in 64), every granularity,
# full table; then c's backend test, memcheck and racecheck.
# Carry: .devcarry/gab3.tar.xz (m/ and c/).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab3.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
timeout 400 python3 benchmark/ab_compare.py --logs $L/ab --variant m="/tmp/b/m/cca_benchmark" \
  --variant c="/tmp/b/c/cca_benchmark" --variant c64="/tmp/b/c/cca_benchmark --link-fan-in 64" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs all --connectivity both" \
  --set 2d-g1="--dimension 2 --size 8192 --g 1 --reps 3" \
  --set 3d-g1="--dimension 3 --size 512 --g 1 --reps 3" \
  --set 2d-g4="--dimension 2 --size 8192 --g 4" \
  --set 3d-g4="--dimension 3 --size 512 --g 4 --reps 3" \
  --set 2d-g16="--dimension 2 --size 8192 --g 16" \
  --set 3d-g16="--dimension 3 --size 512 --g 16 --reps 3" \
  --set 2d-all-on="--dimension 2 --size 8192 --g 0 --reps 11" \
  --set 3d-all-on="--dimension 3 --size 512 --g 0 --reps 11" \
  --set 3d-g1-labels="--dimension 3 --size 512 --g 1 --reps 3 --outputs labels" \
  --set 3d-g16-labels="--dimension 3 --size 512 --g 16 --reps 3 --outputs labels" \
  --order "m c c64 c64 c m" --per-image
echo "ab rc=$? at $SECONDS s"
timeout 150 /tmp/b/c/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -12
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/b/c/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/b/c/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
