#!/usr/bin/env bash
# Call 3 (H200): main (6370750), labels only, g = 1: the union-find's
# passes forced to levels (--link-block-rows, --link-fan-in) where the
# default takes one pass (planes: strips and byte rows), and other block
# heights in 6-connected volumes. Same binary; the default run first and
# last.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu/benchmark/cca_benchmark
exec > >(tee $OUT/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
run() { # name dims conn args...
  local n=$1 d=$2 c=$3; shift 3
  local size=8192; [[ $d == 3 ]] && size=512
  timeout 60 $B --labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1 --dimension $d --size $size --connectivity $c "$@" > $L/$n.log 2>&1
  echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
  grep "^Default" $L/$n.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
}
run 2d8-default 2 full
for br in 16 32 64 128 256; do run 2d8-br$br-f8 2 full --link-block-rows $br --link-fan-in 8; done
run 2d8-br64-f64 2 full --link-block-rows 64 --link-fan-in 64
run 2d8-default-again 2 full
run 2d4-default 2 face
run 2d4-br64-f8 2 face --link-block-rows 64 --link-fan-in 8
run 3d6-default 3 face
for br in 32 64 256; do run 3d6-br$br 3 face --link-block-rows $br; done
run 3d6-default-again 3 face
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
