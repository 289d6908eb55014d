#!/usr/bin/env bash
# Call 4 (H200): main (6370750), each kernel's duration (ncu,
# gpu__time_duration, kernels serialized) in the 8192^2 8-connected
# labels-only runs at g = 1 where BKE is closest: d = 0.2 and 0.3 (the
# rows' runs), 0.4 and 0.6 (the strips); one measured run after one
# warm-up each (the second half of the launches is the measured run).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu/benchmark/cca_benchmark
exec > >(tee $OUT/summary.txt) 2>&1
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 1 --outputs labels --g 1 --dimension 2 --size 8192 --connectivity full"
for d in 0.2 0.3 0.4 0.6; do
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $B $P --density $d > $L/ncu-$d.csv 2> $L/ncu-$d.err
  echo "ncu d=$d rc=$? at $SECONDS s"
  python3 - $L/ncu-$d.csv <<'PY'
import csv, sys, collections
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))]
rows = [r for r in rows if r.get('Metric Name') == 'gpu__time_duration.sum']
half = rows[len(rows) // 2:]
t = collections.OrderedDict()
for r in half:
    name = r['Kernel Name'].split('(')[0].split('<')[0].replace('void ', '')
    v = float(r['Metric Value'].replace(',', ''))
    t[name] = t.get(name, 0) + v
unit = half[0]['Metric Unit'] if half else ''
print('  total %.1f us over %d launches (%s)' % (sum(t.values()) / (1000 if unit == 'nsecond' else 1), len(half), unit))
for k, v in sorted(t.items(), key=lambda kv: -kv[1]):
    print('  %-45s %8.1f' % (k, v / (1000 if unit == 'nsecond' else 1)))
PY
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
