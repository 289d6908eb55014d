#!/usr/bin/env bash
# Session 21: the union-find's run search by warps (warp) against each run's own binary search (run), one binary (--run-search)
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/ab && tar -C /tmp/ab -xJf .devcarry/ab21.tar.xz
K=/tmp/ab/bin/cca_benchmark
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
sumline() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[a-z/]* (pixels\/summed time; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
bench() { local d=$1 out=$2 v=$3 n=$4; local sz=8192; [ $d = 3 ] && sz=512; local f=$L/k$d-$out-$v$n
  [ $SECONDS -gt 560 ] && { echo "skip $f"; return; }
  local extra="--labels-on-device"; [ $out = all ] && extra=""
  timeout 100 $K --dimension $d --size $sz --connectivity both --reps 5 --warmup 1 --outputs $out $extra --no-atomic-counts --run-search $v --json $f.json > $f.log 2>&1
  echo "${d}D $out $v$n rc=$? at $SECONDS s: $(sumline $f.log)"; }
timeout 60 $K --dimension 2 --size 8192 --g 4 --connectivity both --reps 3 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts > $L/warmup.log 2>&1
bench 2 labels run 1; bench 2 labels warp 1; bench 2 labels warp 2; bench 2 labels run 2
bench 3 labels run 1; bench 3 labels warp 1; bench 3 labels warp 2; bench 3 labels run 2
bench 2 all warp 1; bench 2 all run 1
bench 3 all warp 1; bench 3 all run 1
tar -C $OUT -czf $OUT/logs.tgz logs
