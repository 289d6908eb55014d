#!/usr/bin/env bash
# Call 1 (H200): the placing pass's searches queued per tile of 2048 runs
# (p) against main (m): p's backend test and memcheck, then m p p m on the
# g = 1 sets whose images place the largest component's runs (full table).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
for v in m p; do
  cuobjdump --dump-resource-usage /tmp/b/$v/build-gpu/benchmark/cca_benchmark > $L/resources-$v.txt 2>&1
  echo "$v: $(grep -A1 CountPrecedingPairs $L/resources-$v.txt | grep -o 'REG:[0-9]* STACK:[0-9]* SHARED:[0-9]*' | sort | uniq -c | tr '\n' ';')"
done
G=/tmp/b/p/build-gpu
timeout 150 $G/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|vote orders" $L/backend.log | head -12
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
python3 benchmark/ab_compare.py --logs $L/ab --variant m="/tmp/b/m/build-gpu/benchmark/cca_benchmark" \
  --variant p="$G/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --order "m p p m" --per-image
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
