#!/usr/bin/env bash
# Call 2 (H200): n = call 1's change (commit f8c2c4a); p = n with the image
# runs' parents taken by a warp per image row that scans the row and its
# tube row together (CoveredRunParentsKernel from the rows' bytes: a run's
# index and its covering tube run's from the two rows' run starts), instead
# of a pass over the runs that read their rows and starts and searched the
# tube row's end index. a = p --strip-labeling always (the tubes' join at
# d = 0.1 too, where the default takes the union-find over the runs).
# p's backend test, n p a a p n on 512^3 26-conn. g = 1 (full table, per
# image), ncu of every kernel at d = 0.5 for p, then memcheck and
# racecheck on p. Carry: .devcarry/gpu.tar.xz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
P=/tmp/b/p/build-gpu
timeout 150 $P/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|strip" $L/backend.log | head -12
python3 benchmark/ab_compare.py --logs $L/ab --variant n="/tmp/b/n/build-gpu/benchmark/cca_benchmark" \
  --variant p="$P/benchmark/cca_benchmark" --variant a="$P/benchmark/cca_benchmark --strip-labeling always" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --order "n p a a p n" --per-image
echo "ab done at $SECONDS s"
TOP=14 bash benchmark/ncu_kernel_map.sh $P/benchmark/cca_benchmark $L/ncu p-3d-full-d0.5 --outputs all \
  --dimension 3 --size 512 --connectivity full --g 1 --density 0.5
echo "ncu done at $SECONDS s"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $P/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $P/test/gpu/ccaCudaBackendTest --quick --cases 1 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
