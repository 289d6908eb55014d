#!/usr/bin/env bash
# Call 4 (prepared in the sixty-sixth session, run in the sixty-seventh,
# 2026-12-02, on main 63fa2dd): whether the votes should store
# whole components from fewer components a run than 0.1
# (HostSequence::WholeComponentsLeastShare). Call 3 saw one image (8192^2
# 8-conn. g = 1 d = 0.4, 0.066 components a run) 0.11-0.13 ms faster with
# them forced, in one round; the threshold was set where images below 0.07
# were up to 0.18 ms slower. main's cca_benchmark (m, under
# /tmp/b/m/build-gpu) by default (d) and with --whole-components always
# (a), per image, full table: 8192^2 8-conn. g = 1 d a a d, then one round
# each of 8192^2 4-conn. g = 1, 8-conn. g = 4 and 512^3 6- and 26-conn.
# g = 1. Compare per image with the components and runs that the JSON
# records (their ratio is the threshold's measure). About 330 s.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
M=/tmp/b/m/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $OUT/logs/whole --variant d="$M" --variant a="$M --whole-components always" \
  --common "$C" --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" --order "d a a d"
python3 benchmark/ab_compare.py --logs $OUT/logs/whole --variant d="$M" --variant a="$M --whole-components always" \
  --common "$C" --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g4="--dimension 2 --size 8192 --connectivity full --g 4" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" --order "d a"
python3 - $OUT/logs/whole <<'PY'
import json, pathlib, sys
logs = pathlib.Path(sys.argv[1])
for d in sorted(logs.glob("*-d1.json")):
    name = d.name[: -len("-d1.json")]
    runs = {v.name[len(name) + 1 : -len(".json")]: json.loads(v.read_text())["measurements"] for v in sorted(logs.glob(name + "-*.json"))}
    print(name, " ".join(runs))
    for i, m in enumerate(runs["d1"]):
        share = m["components"] / m["runs"] if m["runs"] else 0
        print(f"  d={m['density']:.1f} share {share:.3f} " + " ".join(f"{r[i]['kernelMs']:.3f}" for r in runs.values()))
PY
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
