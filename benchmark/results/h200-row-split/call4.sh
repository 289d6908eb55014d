#!/usr/bin/env bash
# Call 4 (H200): the final code of the runs' end index: call 3's, plus the
# strips' join (26-connected volumes of short runs) finding the covering
# strip run from the strip runs' end index. 512^3 26-conn. g = 1, full
# table, V A A V (--run-end-index never / auto); then the GPU tests,
# memcheck and racecheck.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 1 --dimension 3 --size 512 --connectivity full"
for v in v1 a1 a2 v2; do
  timeout 60 $B $P --run-end-index $([ ${v:0:1} = a ] && echo auto || echo never) --json $L/3d-full-g1-all-$v.json > $L/3d-full-g1-all-$v.log 2>&1
  echo "3d-full-g1-all-$v rc=$? at $SECONDS s: $(s $L/3d-full-g1-all-$v.log)"
  grep "^Default" $L/3d-full-g1-all-$v.log | awk '{printf "%s:%s+%s ", $4, $7, $8} END {print ""}'
done
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
grep -E "row-bit links|strip joins|wide rows|large image" $L/backend.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
