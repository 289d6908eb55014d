#!/usr/bin/env bash
# Call 2 (H200): where the easy images' time goes. Labels only, N (call
# 1's binary), 8192^2 8-conn. and 512^3 26-conn., g = 1, d = 0, 0.1 and 1:
# the benchmark's per-image time beside ncu's kernel times (clocks and
# caches left alone, kernels serialized; the last of three runs).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/perf.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/n/cca_benchmark
for c in "2 8192" "3 512"; do set -- $c
  for d in 0.0 0.1 1.0; do
    Q="--labels-on-device --no-atomic-counts --outputs labels --g 1 --dimension $1 --size $2 --connectivity full --density $d"
    timeout 60 $X $Q --warmup 2 --reps 20 > $L/bench-$1d-$d.log 2>&1
    echo "$1D d=$d: $(grep '^Default' $L/bench-$1d-$d.log | awk '{print $4, $10, "ms"}')"
    timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv $X $Q --warmup 1 --reps 1 > $L/ncu-$1d-$d.csv 2> $L/ncu-$1d-$d.err
    python3 - $L/ncu-$1d-$d.csv <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))]
rows = [r for r in rows if r.get('Metric Name') == 'gpu__time_duration.sum']
last = rows[-(len(rows) // 3):]
print('  kernels %.1f us over %d launches:' % (sum(float(r['Metric Value'].replace(',', '')) for r in last) / 1000, len(last)),
      ', '.join('%s %.1f' % (r['Kernel Name'].split('(')[0].replace('void ', '').split('<')[0].replace('cca::', '').replace('cub::', ''),
                             float(r['Metric Value'].replace(',', '')) / 1000) for r in last))
PY
  done
done
grep -h "stage\|Stage" $L/bench-2d-1.0.log | head -20
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
