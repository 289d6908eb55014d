#!/usr/bin/env bash
# Call 7: the small masks' upload against the host's read of the mask. On
# call 6's host the mask is read at about 200 GB/s (0.48 ms for the CT-like
# mask) while the engine's upload takes 1.0 ms: each copy thread packs its
# whole region (one piece) before its copy starts. Pieces of 256, 128 and
# 64 KiB (cca_e2e_benchmark --region-piece-bytes, the backend's hook) let
# a region's copy overlap its packing. Engine alone, no ITK, best of 7 a
# process, the variants interleaved d a b c c b a d.
set -u
mkdir -p /tmp/b $OUT/logs && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; nproc
xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/b -xf - && tar -C /tmp/b -xf /tmp/b/build.tar
export LD_LIBRARY_PATH=/tmp/b/lib
B=/tmp/b/build-gpu/benchmark
SECONDS=0
declare -A piece=([d]=0 [a]=262144 [b]=131072 [c]=65536)
k=0
for v in d a b c c b a d; do
  k=$((k + 1))
  timeout 100 $B/cca_e2e_benchmark --no-itk --reps 7 --region-piece-bytes ${piece[$v]} \
    --only ct-face,ct-full,balls-60k,random2d-g16,random2d-g4 > $OUT/logs/$k-$v.log 2>&1
  echo "$k $v rc=$? at $SECONDS s"
done
python3 - $OUT/logs <<'PY'
import glob, os, re, sys
rows = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.log")), key=lambda p: int(os.path.basename(p).split("-")[0])):
    run = os.path.basename(path)[:-4]
    mask = None
    for line in open(path):
        m = re.match(r"== (\S+):", line)
        if m:
            mask = m.group(1)
        m = re.search(r"engine alone ([0-9.]+) ms: up [0-9.]+ MB in ([0-9.]+) ms", line)
        if m and mask:
            rows.setdefault(mask, {})[run] = (float(m.group(1)), float(m.group(2)))
        m = re.search(r"mask read once on \d+ threads in ([0-9.]+) ms", line)
        if m and mask:
            rows[mask][run] += (float(m.group(1)),)
print("engine alone ms / upload ms / the mask's read ms, per process (run-variant)")
for mask, runs in rows.items():
    print(mask.ljust(14), "  ".join(f"{r}: {v[0]:.2f}/{v[1]:.2f}/{v[2]:.2f}" for r, v in runs.items()))
PY
cd $OUT && tar czf logs.tgz logs && rm -rf logs
