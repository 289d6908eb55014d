#!/usr/bin/env bash
# Call 1: the band-streaming probe (band-streaming-probe.cu, built here) on
# the protocol's 8192^2 g = 1 planes, 4- and 8-connectivity, bands of 16,
# 32, 64 and 128 rows, every 8th band's component count checked against a
# CPU union-find; beside it, in the same call, main's cca_benchmark (232acf6,
# build-gpu) on the same images: labels only and labels + runs + full
# table, the label image in device memory.
set -uo pipefail
mkdir -p $OUT/call1 && exec > >(tee $OUT/call1/log.txt) 2>&1
nvidia-smi -L; nproc
D=benchmark/results/h100-band-streaming-probe
SECONDS=0
nvcc -O3 -std=c++17 -arch=sm_90 -I include $D/band-streaming-probe.cu -o /tmp/probe || exit 1
nvcc -O3 -std=c++17 -arch=sm_90 -I include -Xptxas -v $D/band-streaming-probe.cu -o /dev/null 2>&1 | grep -E "registers|smem" | head -4
echo "probe built at $SECONDS s"
timeout 240 /tmp/probe --size 8192 --reps 5 --rows 16,32,64,128
echo "probe rc=$? at $SECONDS s"
xz -dc .devcarry/cca_benchmark-main.xz > /tmp/cca_benchmark && chmod +x /tmp/cca_benchmark
for outputs in labels all; do
  timeout 150 /tmp/cca_benchmark --dimension 2 --size 8192 --g 1 --connectivity both --reps 5 --warmup 1 \
    --outputs $outputs --labels-on-device --no-atomic-counts --json $OUT/call1/engine-$outputs.json > $OUT/call1/engine-$outputs.log 2>&1
  echo "engine $outputs rc=$? at $SECONDS s"
done
python3 - $OUT/call1 <<'PY'
import json, sys
d = sys.argv[1]
for o in ("labels", "all"):
    m = json.load(open(f"{d}/engine-{o}.json"))["measurements"]
    for c in ("face", "full"):
        rows = [r for r in m if r["connectivity"] == c and r["g"] == 1 and r["algorithm"] == "Default"]
        total = sum(r["kernelMs"] for r in rows)
        print(o, c, "per image ms:", " ".join(f"{r['density']:.1f}:{r['kernelMs']:.3f}" for r in rows),
              f"| summed {total:.3f} ms, {len(rows) * 8192 * 8192 / total / 1e6:.1f} Gpix/s")
PY
echo "done at $SECONDS s"
