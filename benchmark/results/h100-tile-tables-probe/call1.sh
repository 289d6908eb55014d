#!/usr/bin/env bash
# Call 1: the probe (tile-tables-probe.cu, built here) on the protocol's
# 8192^2 g = 1 planes, 4- and 8-connectivity, every output checked against
# its CPU reference; beside it, in the same call, cca_benchmark (main,
# 39b2071) on the same images: labels only and labels + runs + full table,
# the label image in device memory, as the kernels2d step runs it.
set -uo pipefail
mkdir -p $OUT/call1 && exec > >(tee $OUT/call1/log.txt) 2>&1
nvidia-smi -L; nproc
D=benchmark/results/h100-tile-tables-probe
SECONDS=0
nvcc -O3 -std=c++17 -arch=sm_90 -I include $D/tile-tables-probe.cu -o /tmp/probe || exit 1
echo "probe built at $SECONDS s"
xz -dc .devcarry/cca_benchmark.xz > /tmp/cca_benchmark && chmod +x /tmp/cca_benchmark
for outputs in labels all; do
  timeout 120 /tmp/cca_benchmark --dimension 2 --size 8192 --g 1 --connectivity both --reps 5 --warmup 1 \
    --outputs $outputs --labels-on-device --no-atomic-counts --json $OUT/call1/engine-$outputs.json > $OUT/call1/engine-$outputs.log 2>&1
  echo "engine $outputs rc=$? at $SECONDS s"
done
python3 - $OUT/call1 <<'PY'
import json, sys
d = sys.argv[1]
for o in ("labels", "all"):
    m = json.load(open(f"{d}/engine-{o}.json"))["measurements"]
    for c in ("face", "full"):
        rows = [r for r in m if r["connectivity"] == c and r["g"] == 1]
        total = sum(r["kernelMs"] for r in rows)
        print(o, c, "per image ms:", " ".join(f"{r['density']:.1f}:{r['kernelMs']:.3f}" for r in rows),
              f"| summed {total:.3f} ms, {len(rows) * 8192 * 8192 / total / 1e6:.1f} Gpix/s")
PY
for conn in 4 8; do
  timeout 100 /tmp/probe $conn 5
  echo "probe $conn rc=$? at $SECONDS s"
done
echo "done at $SECONDS s"
# Then the GPU tests of main (39b2071: the last session's commit, not yet
# run on a device) from scripts/make-gpu-bundle.sh's bundle, if carried.
if [[ -f .devcarry/itk-bundle.tar.xz && $SECONDS -lt 330 ]]; then
  mkdir -p /tmp/bundle && xz -dc .devcarry/itk-bundle.tar.xz | tar -C /tmp/bundle -xf - && tar -C $PWD -xf /tmp/bundle/build.tar
  [[ $PWD != /work/main ]] && mkdir -p /work && ln -sfn $PWD /work/main
  export LD_LIBRARY_PATH=/tmp/bundle/lib
  (cd /work/main/build-gpu && timeout 200 ctest --output-on-failure -E 'CudaLabelStatisticsInstall|Emulation' -j 6 --timeout 190 > $OUT/call1/ctest.log 2>&1)
  echo "ctest rc=$? at $SECONDS s"; grep -E "tests passed|Not Run|Failed" $OUT/call1/ctest.log | tail -12
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 /work/main/build-gpu/test/gpu/ccaCudaBackendTest --quick > $OUT/call1/memcheck.log 2>&1
  echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/call1/memcheck.log | tail -1) at $SECONDS s"
  left=$((560 - SECONDS)); if [[ $left -gt 60 ]]; then
    timeout $left compute-sanitizer --tool racecheck --error-exitcode 9 /work/main/build-gpu/test/gpu/ccaCudaBackendTest --quick --cases 4 --algorithm Default > $OUT/call1/racecheck.log 2>&1
    echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/call1/racecheck.log | tail -1) at $SECONDS s"
  fi
fi
echo "all done at $SECONDS s"
