#!/usr/bin/env bash
# Calls 1 and 2 (an A/B, then the tests), branch tubes-row-bits on 8ebaf04
# (f2e8b65; main took its code with only comments changed): the
# strips' union-find reads the image's facing rows and the strip rows as
# bits (a: --strip-row-bits auto), only the image's rows as bits (i:
# image), or both as bytes, as main does (n: never); g = 1 and 3D g = 4,
# the full table and labels only, full connectivity only (the face
# connectivities take no strips). Then the backend test, memcheck and
# racecheck.
# Carry: .devcarry/gab1.tar.xz (r/cca_benchmark, r/ccaCudaBackendTest).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab1.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
B=/tmp/b/r/cca_benchmark
timeout 240 python3 benchmark/ab_compare.py --logs $L/ab --variant a="$B --strip-row-bits auto" \
  --variant i="$B --strip-row-bits image" --variant n="$B --strip-row-bits never" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --outputs all --connectivity full" \
  --set 3d-g1="--dimension 3 --size 512 --g 1 --reps 3" \
  --set 2d-g1="--dimension 2 --size 8192 --g 1 --reps 3" \
  --set 3d-g4="--dimension 3 --size 512 --g 4 --reps 3" \
  --set 3d-g1-labels="--dimension 3 --size 512 --g 1 --reps 3 --outputs labels" \
  --order "a i n n i a" --per-image
echo "ab rc=$? at $SECONDS s"
tar -C $OUT -czf $OUT/ab-logs.tgz logs/ab && rm -rf $L/ab
timeout 150 /tmp/b/r/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -12
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/b/r/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/b/r/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
