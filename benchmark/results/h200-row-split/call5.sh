#!/usr/bin/env bash
# Call 5 (H200): with the runs' end index the union-find's searches are
# cheaper: does labels only still want the rows' bits where the rule takes
# them? Labels only, 8192^2 4-conn. and 512^3 6-conn., g = 1 and 4,
# --row-bit-links auto / never / always, once each; per-image times.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs labels --connectivity face"
for c in "1 2 8192" "1 3 512" "4 2 8192" "4 3 512"; do
  set -- $c
  for v in auto never always; do
    t=$2d-g$1-labels-$v
    timeout 60 $B $P --g $1 --dimension $2 --size $3 --row-bit-links $v --json $L/$t.json > $L/$t.log 2>&1
    echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
    grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $7} END {print ""}'
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
