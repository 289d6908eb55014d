#!/usr/bin/env bash
# Call 6 (H200): where the all-foreground images' time goes with the full
# table (labels + runs + table, issue 13's target 300): call 4's N, the
# benchmark's per-image time (median of 20) and stage times beside ncu's
# kernel times (clocks and caches left alone; the last of three runs),
# 8192^2 4- and 8-conn., 512^3 6- and 26-conn.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/perf.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/n/cca_benchmark
for c in "2 8192 face" "2 8192 full" "3 512 face" "3 512 full"; do set -- $c
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension $1 --size $2 --connectivity $3 --density 1.0"
  timeout 60 $X $Q --warmup 2 --reps 20 > $L/bench-$1d-$3.log 2>&1
  echo "$1D $3: $(sed -n 3p $L/bench-$1d-$3.log)"
  timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv $X $Q --warmup 1 --reps 1 > $L/ncu-$1d-$3.csv 2> $L/ncu-$1d-$3.err
  python3 - $L/ncu-$1d-$3.csv <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))]
rows = [r for r in rows if r.get('Metric Name') == 'gpu__time_duration.sum']
last = rows[-(len(rows) // 3):]
print('  kernels %.1f us over %d launches:' % (sum(float(r['Metric Value'].replace(',', '')) for r in last) / 1000, len(last)),
      ', '.join('%s %.1f' % (r['Kernel Name'].split('(')[0].replace('void ', '').split('<')[0].replace('cca::', '').replace('cub::', ''),
                             float(r['Metric Value'].replace(',', '')) / 1000) for r in last))
PY
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
