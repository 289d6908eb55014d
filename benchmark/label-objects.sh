#!/usr/bin/env bash
# cca_label_objects_benchmark in each configuration: ITK's five image IO
# factories registered or none; label objects from New() (asks every factory
# for every object) or the LabelMap builder's MakeLabelObject (asks once);
# glibc's heap growth or 64 MiB steps (cca::MallocHeapSteps).
# One process per run (fresh memory, as a program's first Update()), the
# configurations interleaved, ROUNDS rounds; then the median of each.
# Usage: benchmark/label-objects.sh PROGRAM [THREADS] [OBJECTS] [ROUNDS]
set -euo pipefail
program=$1
threads=${2:-$(nproc)}
objects=${3:-4000000}
rounds=${4:-3}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for ((r = 1; r <= rounds; ++r)); do
  for factories in --io-factories ""; do
    for maker in --new ""; do
      for heaps in "" --grow-heaps; do
        # shellcheck disable=SC2086 # empty options vanish
        "$program" --objects "$objects" --threads "$threads" $factories $maker $heaps | tee -a "$log"
      done
    done
  done
done
echo "median ns an object over $rounds rounds ($objects objects, $threads threads):"
python3 - "$log" <<'PY'
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r"objects \d+ threads \d+ factories (\d+) maker (\S+) heaps (\S+): [\d.]+ ms, ([\d.]+) ns", line)
    if m:
        runs.setdefault(m.groups()[:3], []).append(float(m.group(4)))
print("| factories | maker | heaps | ns an object (median) | runs |")
print("|---|---|---|---|---|")
for (factories, maker, heaps), v in sorted(runs.items(), key=lambda kv: (-int(kv[0][0]), kv[0][1], kv[0][2])):
    print(f"| {factories} | {maker} | {heaps} | {statistics.median(v):.0f} | {', '.join(f'{x:.0f}' for x in v)} |")
PY
