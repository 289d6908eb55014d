#!/usr/bin/env bash
# Call 5: where a process's first 512^3 run goes beyond its later ones
# (tools/firstrun-probe.cpp, the final build's engine): four fresh
# processes each of mode plain and warm3d (an 8^3 volume run after
# StartCuda), alternated; then one plain process under the CUPTI timeline
# of ../h200-host-waits (timeline-injection.cpp), its runtime calls and
# kernels summed by phase (call5/phases.txt was printed with the phases
# named one off: its "run 1" is StartCuda, "run 2" the first run).
set -uo pipefail
mkdir -p $OUT/call5 && exec > >(tee $OUT/call5/log.txt) 2>&1
nvidia-smi -L; nproc
P=.devcarry/firstrun-probe
for round in 1 2 3 4; do
  for m in plain warm3d; do echo "== $m: $($P $m)"; done
done
CUDA_INJECTION64_PATH=$PWD/.devcarry/libtimeline.so TIMELINE_OUT=$OUT/call5/timeline.tsv $P plain
python3 - $OUT/call5/timeline.tsv <<'PY' | tee $OUT/call5/phases.txt
import sys, collections
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
rows = sorted(((int(k), int(s), int(e), n) for k, s, e, _, _, n in rows), key=lambda r: r[1])
marks = [r[1] for r in rows if r[0] == 3 and r[3].startswith('cudaDriverGetVersion')]
names = ['context', 'StartCuda', 'the image made, run 1', 'run 2', 'run 3', 'run 4', 'to the exit']
t0 = rows[0][1]
def phase(t):
    return sum(1 for m in marks if m <= t)
for p in range(len(marks) + 1):
    lo = marks[p - 1] if p else t0
    hi = marks[p] if p < len(marks) else rows[-1][2]
    api = [r for r in rows if r[0] == 3 and phase(r[1]) == p]
    ker = [r for r in rows if r[0] == 0 and phase(r[1]) == p]
    cpy = [r for r in rows if r[0] in (1, 2) and phase(r[1]) == p]
    print(f"== phase {p} ({names[p] if p < len(names) else p}): {(hi - lo) / 1e6:.1f} ms; kernels {len(ker)} summing {sum(e - s for _, s, e, _ in ker) / 1e6:.2f} ms; copies/fills {len(cpy)} summing {sum(e - s for _, s, e, _ in cpy) / 1e6:.2f} ms")
    tot = collections.defaultdict(lambda: [0, 0, 0])
    for _, s, e, n in api:
        t = tot[n]; t[0] += 1; t[1] += e - s; t[2] = max(t[2], e - s)
    for n, (c, s, m) in sorted(tot.items(), key=lambda x: -x[1][1])[:10]:
        print(f"   {n[:50]:50s} {c:6d} {s / 1e6:9.2f} ms, max {m / 1e6:7.2f}")
    slow = [r for r in api if r[2] - r[1] > 1e6]
    for _, s, e, n in slow[:15]:
        print(f"   slow call at {(s - lo) / 1e6:8.1f} ms: {(e - s) / 1e6:7.2f} ms {n[:60]}")
PY
xz -9 $OUT/call5/timeline.tsv
echo done
