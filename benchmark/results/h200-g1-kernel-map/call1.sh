#!/usr/bin/env bash
# Call 1 (H200): where main's g = 1 images spend their kernel time today,
# kernel by kernel and density by density (CUPTI timelines of
# h200-host-waits' timeline-injection.cpp, the timed run of each process):
# 512^3 6-conn. full table d = 0.1 ... 0.9 and labels only at 0.3 / 0.7,
# 8192^2 4-conn. full table at 0.3 / 0.6.
set -u
mkdir -p /tmp/b $OUT/t
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
K="/tmp/b/x/build-gpu/benchmark/cca_benchmark --reps 1 --warmup 1 --labels-on-device --no-atomic-counts --g 1"
one() { # name, then cca_benchmark arguments
  local n=$1; shift
  TIMELINE_OUT=$OUT/t/$n.tsv CUDA_INJECTION64_PATH=$PWD/.devcarry/libtimeline.so timeout 90 $K "$@" > $OUT/t/$n.log 2>&1
  echo "$n rc=$? at $SECONDS s: $(grep -E '^Default' $OUT/t/$n.log | head -1)"
}
for d in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9; do one f3-$d --outputs all --dimension 3 --size 512 --connectivity face --density $d; done
for d in 0.3 0.7; do one l3-$d --outputs labels --dimension 3 --size 512 --connectivity face --density $d; done
for d in 0.3 0.6; do one f2-$d --outputs all --dimension 2 --size 8192 --connectivity face --density $d; done
S=benchmark/results/h200-g1-kernel-map/kernel_sums.py
echo "== 512^3 6-conn. g = 1, full table, us in the timed run"
python3 $S 1 $(for d in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9; do echo d$d=$OUT/t/f3-$d.tsv; done)
echo "== labels only, 512^3 6-conn.; 8192^2 4-conn. full table"
python3 $S 1 l0.3=$OUT/t/l3-0.3.tsv l0.7=$OUT/t/l3-0.7.tsv p0.3=$OUT/t/f2-0.3.tsv p0.6=$OUT/t/f2-0.6.tsv
cd $OUT && for f in t/*.tsv; do xz -T4 $f; done; tar -czf logs.tgz t && rm -rf t
echo "done at $SECONDS s"
