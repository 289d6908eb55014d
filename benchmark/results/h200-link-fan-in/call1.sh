#!/usr/bin/env bash
# Call 1 (H200): the union-find's levels joining groups of blocks (fan-in).
# The quick GPU test first; then, in one binary, the default (D: 8 blocks a
# level where runs are long, else 2) against the levels of pairs forced
# everywhere (F2, the rule before), two rounds D F2 F2 D, full table; fan-ins
# 4 and 16 forced everywhere once; labels only D and F2. Images and labels in
# device memory. Logs packed in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; N=$B/benchmark/cca_benchmark
nvidia-smi -L > $L/device.txt
timeout 60 $B/test/gpu/ccaCudaBackendTest --quick > $L/quick.log 2>&1; echo "quick rc=$? at $SECONDS s"; grep -E "^total|FAIL|fan-in" $L/quick.log | head -8
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
$N $P --outputs all --dimension 2 --size 8192 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
run() { # variant[-round] outputs
  local v=$1 o=$2 f=0 w=${1%-*}
  case $w in F*) f=${w:1};; esac
  timeout 40 $N $P --link-fan-in $f --outputs $o --dimension 2 --size 8192 --connectivity both --json $L/k2-$o-$v.json > $L/k2-$o-$v.log 2>&1
  echo "2D $o $v rc=$? at $SECONDS s: $(s $L/k2-$o-$v.log)"
  timeout 55 $N $P --link-fan-in $f --outputs $o --dimension 3 --size 512 --connectivity both --json $L/k3-$o-$v.json > $L/k3-$o-$v.log 2>&1
  echo "3D $o $v rc=$? at $SECONDS s: $(s $L/k3-$o-$v.log)"
}
for v in D-1 F2-1 F2-2 D-2; do run $v all; done
for v in F4 F16; do run $v all; done
for v in D F2; do run $v labels; done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
