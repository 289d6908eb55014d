#!/usr/bin/env bash
# Call 1: how many DRAM bytes today's passes move on every image of the
# unmet g = 1 sets (full table), and their plain kernel times, main's
# cca_benchmark (build-gpu of 87a40a6, carried as .devcarry). ncu of every
# kernel of one run per image (benchmark/ncu_kernel_map.sh: each kernel
# launches twice, floor.py halves the sums).
set -u
mkdir -p $OUT/ncu /tmp/b && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
xz -dc .devcarry/cca_benchmark-main.xz > /tmp/b/cca_benchmark && chmod +x /tmp/b/cca_benchmark
B=/tmp/b/cca_benchmark
SECONDS=0
# The bandwidth a plain device-to-device copy reaches here (2 GiB, CuPy).
python3 - <<'PY' | tee $OUT/copy.txt
import cupy as cp
n = 1 << 31
a = cp.ones(n, dtype=cp.uint8); b = cp.empty_like(a)
start, stop = cp.cuda.Event(), cp.cuda.Event()
for _ in range(3):
    b[...] = a
times = []
for _ in range(10):
    start.record(); cp.copyto(b, a); stop.record(); stop.synchronize()
    times.append(cp.cuda.get_elapsed_time(start, stop) * 1e-3)
best = min(times)
print(f"copy of {n} bytes: read + written {2 * n / best / 1e12:.2f} TB/s at best, {2 * n / (sum(times) / len(times)) / 1e12:.2f} mean")
PY
# Plain timings of the same sets first (5 reps after a warm-up).
for set in "2 8192 face" "2 8192 full" "3 512 face"; do
  read dim size conn <<< "$set"
  $B --labels-on-device --outputs all --g 1 --dimension $dim --size $size --connectivity $conn \
    --json $OUT/time-$dim-$conn.json > $OUT/time-$dim-$conn.log 2>&1
  echo "timed $dim $conn rc=$? at $SECONDS s"
done
for set in "2 8192 face" "2 8192 full" "3 512 face"; do
  read dim size conn <<< "$set"
  for d in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1; do
    TOP=0 bash benchmark/ncu_kernel_map.sh $B $OUT/ncu ${dim}d-$conn-d$d --outputs all --g 1 \
      --dimension $dim --size $size --connectivity $conn --density $d > /dev/null
    echo "ncu ${dim}d $conn d=$d at $SECONDS s"
  done
done
COPY=$(sed -n 's/.*written \([0-9.]*\) TB.s at best.*/\1/p' $OUT/copy.txt)
python3 benchmark/results/h100-pass-bytes-floor/floor.py $OUT/ncu $OUT/time-*.json | tee $OUT/floor.txt
[ -n "$COPY" ] && python3 benchmark/results/h100-pass-bytes-floor/floor.py $OUT/ncu $OUT/time-*.json --copy-tbps $COPY | tee $OUT/floor-copy.txt
cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu
