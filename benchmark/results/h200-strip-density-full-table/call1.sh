#!/usr/bin/env bash
# Call 1 (H200): the planes' strips from a sampled foreground fraction of 0.25
# (was 0.45) and the run count read once (77f49c1), labels only; the full
# table (labels + runs + table) on the H200 for the first time; per-kernel
# times by ncu of the hard images. Everything packed in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt
K="$B/benchmark/cca_benchmark --reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
$K --outputs labels --dimension 2 --size 8192 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
timeout 45 $K --outputs labels --dimension 2 --size 8192 --connectivity full --json $L/k2-labels.json > $L/k2-labels.log 2>&1
echo "labels 2D 8 rc=$? at $SECONDS s: $(s $L/k2-labels.log)"
timeout 100 $K --outputs labels --dimension 3 --size 512 --connectivity both --json $L/k3-labels.json > $L/k3-labels.log 2>&1
echo "labels 3D rc=$? at $SECONDS s: $(s $L/k3-labels.log)"
timeout 90 $K --outputs all --dimension 2 --size 8192 --connectivity both --json $L/k2-all.json > $L/k2-all.log 2>&1
echo "all 2D rc=$? at $SECONDS s: $(s $L/k2-all.log)"
timeout 150 $K --outputs all --dimension 3 --size 512 --connectivity both --json $L/k3-all.json > $L/k3-all.log 2>&1
echo "all 3D rc=$? at $SECONDS s: $(s $L/k3-all.log)"
N="ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base"
P="$B/benchmark/cca_benchmark --reps 1 --warmup 0 --labels-on-device --no-atomic-counts"
p() { local name=$1; shift; timeout 60 $N $P "$@" > $L/ncu-$name.csv 2> $L/ncu-$name.err; echo "ncu $name rc=$? at $SECONDS s"; }
p 3d6-g1-d06-labels --outputs labels --dimension 3 --size 512 --g 1 --density 0.6 --connectivity face
p 3d6-g1-d03-labels --outputs labels --dimension 3 --size 512 --g 1 --density 0.3 --connectivity face
p 2d8-g1-d05-labels --outputs labels --dimension 2 --size 8192 --g 1 --density 0.5 --connectivity full
p 2d4-g1-d03-all --outputs all --dimension 2 --size 8192 --g 1 --density 0.3 --connectivity face
p 2d4-g4-d05-all --outputs all --dimension 2 --size 8192 --g 4 --density 0.5 --connectivity face
p 2d4-d1-all --outputs all --dimension 2 --size 8192 --g 1 --density 1 --connectivity face
p 3d6-g4-d05-all --outputs all --dimension 3 --size 512 --g 4 --density 0.5 --connectivity face
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
