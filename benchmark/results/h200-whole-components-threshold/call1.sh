#!/usr/bin/env bash
# Call 1 (H200): the votes store whole components from 0.06 components a
# unit instead of 0.1 (HostSequence::WholeComponentsLeastShare; n) against
# main 63fa2dd (m). Only two images of the benchmark lie between: 8192^2
# 8-conn. g = 1 d = 0.4 (0.066) and 4-conn. g = 4 d = 0.5 (0.066). Full
# table, per image, m n n m on both sets, each image's components a unit
# printed beside its times; then n's full engine GPU tests with memcheck
# and racecheck. Pack: stripped build-gpu binaries under /tmp/b/{m,n}.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
V() { echo "/tmp/b/$1/build-gpu/benchmark/cca_benchmark"; }
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant m="$(V m)" --variant n="$(V n)" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 2d-face-g4="--dimension 2 --size 8192 --connectivity face --g 4" --order "m n n m"
python3 - $OUT/logs/ab <<'PY'
import json, pathlib, sys
logs = pathlib.Path(sys.argv[1])
for first in sorted(logs.glob("*-m1.json")):
    name = first.name[: -len("-m1.json")]
    runs = {v.name[len(name) + 1 : -len(".json")]: json.loads(v.read_text())["measurements"] for v in sorted(logs.glob(name + "-*.json"))}
    print(name, " ".join(runs))
    for i, m in enumerate(runs["m1"]):
        share = m["components"] / m["runs"] if m["runs"] else 0
        print(f"  d={m['density']:.1f} share {share:.3f} " + " ".join(f"{r[i]['kernelMs']:.3f}" for r in runs.values()))
PY
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
