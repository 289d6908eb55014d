#!/usr/bin/env bash
# Prepared for the next session, not run (the device time had run out):
# a volume's passes from the rows' bits queue their events below the
# sampled density VolumeQueuedEventsDensity (v:
# volume-queued-events-unmeasured.patch applied), against main ab7f964
# (c), c v v c: 512^3 g = 1 26-conn. labels only and full table, 6-conn.
# labels only; the quick GPU tests on v. About 420 s. Pack: c's
# cca_benchmark at /tmp/b/c/build-gpu/benchmark, v's cca_benchmark and
# ccaCudaBackendTest under /tmp/b/v/build-gpu.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
C=/tmp/b/c/build-gpu/benchmark/cca_benchmark
V=/tmp/b/v/build-gpu/benchmark/cca_benchmark
C2="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-26 --variant c="$C" --variant v="$V" --common "$C2" \
  --set 3d-full-g1-labels="--dimension 3 --size 512 --connectivity full --g 1 --outputs labels" \
  --set 3d-face-g1-labels="--dimension 3 --size 512 --connectivity face --g 1 --outputs labels" --order "c v v c"
echo "== v: GPU tests (--quick)"
bash scripts/engine-gpu-tests.sh --quick /tmp/b/v/build-gpu $OUT/logs/tests
if [ $SECONDS -lt 450 ]; then
  python3 benchmark/ab_compare.py --logs $OUT/logs/ab-26-all --variant c="$C" --variant v="$V" --common "$C2" \
    --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1 --outputs all" --order "c v v c"
fi
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
