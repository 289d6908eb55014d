#!/usr/bin/env bash
# A (c2c4217) against B (bits union-find, one Join call site), B with 2D row blocks by env
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/ab && tar -C /tmp/ab -xJf .devcarry/ab16c.tar.xz
nvidia-smi -L > $L/device.txt
bench() { local d=$1 out=$2 v=$3 br=$4; shift 4; local sz=8192; [ $d = 3 ] && sz=512; local tag=$(echo "$*" | tr -dc 'a-z'); local f=$L/k$d-$out-$v$br$tag
  if [ $br = 0 ]; then unset CCA_EXP_BLOCKROWS; else export CCA_EXP_BLOCKROWS=$br; fi
  timeout 150 /tmp/ab/bin$v/cca_benchmark --dimension $d --size $sz --connectivity both --reps 5 --warmup 1 --outputs $out --labels-on-device --no-atomic-counts --json $f.json "$@" > $f.log 2>&1
  echo "${d}D $out $v br=$br $* rc=$? at $SECONDS s: $(grep '^==' $f.log | sed 's/.*kernel \([0-9.]*\) G[a-z/]* (pixels\/summed time; \([0-9.]*\) mean.*memory <= \([0-9.]*\) bytes.*/\1 (\2) \3B/' | tr '\n' ' ')"
  unset CCA_EXP_BLOCKROWS
}
bench 2 labels A 0; bench 2 labels B 0; bench 2 labels B 32; bench 2 labels B 128; bench 2 labels B 512
bench 2 labels B 64; bench 2 labels A 0; bench 2 labels B 0
mkdir -p $OUT/j; cp $L/*.json $OUT/j/ 2>/dev/null
tar -C $OUT -czf $OUT/logs.tgz logs
