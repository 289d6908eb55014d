#!/usr/bin/env bash
# Call 2 (H200): records carried within chunks of C tiles, the chunks
# grid-strided (CCA_VOTE_CHUNK=C, an experiment's knob; 0 = one stretch a
# warp as in call 1), C = 1, 4, 16, 0, against B (18c8c7b), full table,
# g = 1 and 4, 2D and 3D, two rounds. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
N=/tmp/b/build-gpu; xz -dc .devcarry/before/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
nvidia-smi -L > $L/device.txt
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --connectivity both"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$N/benchmark/cca_benchmark $P --dimension 2 --size 8192 --g 4 > /dev/null 2>&1 # warm-up
for r in 1 2; do
  for v in B C1 C4 C16 C0; do
    X=$N/benchmark/cca_benchmark; [[ $v == B ]] && X=/tmp/b/before
    for g in 1 4; do
      CCA_VOTE_CHUNK=${v#C} timeout 40 $X $P --g $g --dimension 2 --size 8192 --json $L/k2-g$g-$v$r.json > $L/k2-g$g-$v$r.log 2>&1
      echo "2D g$g $v$r rc=$? at $SECONDS s: $(s $L/k2-g$g-$v$r.log)"
      CCA_VOTE_CHUNK=${v#C} timeout 40 $X $P --g $g --dimension 3 --size 512 --json $L/k3-g$g-$v$r.json > $L/k3-g$g-$v$r.log 2>&1
      echo "3D g$g $v$r rc=$? at $SECONDS s: $(s $L/k3-g$g-$v$r.log)"
    done
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
