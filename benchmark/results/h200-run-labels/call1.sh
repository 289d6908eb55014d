#!/usr/bin/env bash
# Call 1 (H200): N = the strip labeling's runs take their labels in one
# kernel after the ranks (StripRunLabelsKernel: each run's flattened root
# becomes its label, in place), so that the strip label image reads one
# value a run instead of the root's key and its rank; B = main (b86fc2f).
# Labels only, B N B N: 8192^2 8-connected g = 1, 512^3 26-connected
# g = 1 and 4 (the tubes); then ncu kernel times of N (clocks left alone,
# caches flushed as ncu does by default; the last of three runs) at
# 8192^2 8-conn. g = 1, d = 0.4 and 0.6, as call 4 of h200-region-slabs.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/perf.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels"
for c in "2 8192 1" "3 512 1" "3 512 4"; do set -- $c
  for r in 1 2; do for v in b n; do
    X=/tmp/b/$v/cca_benchmark; t=$1d-g$3-$v$r
    timeout 60 $X $P --g $3 --dimension $1 --size $2 --connectivity full --json $L/$t.json > $L/$t.log 2>&1
    echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
    grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
  done; done
done
Q="--labels-on-device --no-atomic-counts --warmup 1 --reps 1 --outputs labels --g 1 --dimension 2 --size 8192 --connectivity full"
for d in 0.4 0.6; do
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv /tmp/b/n/cca_benchmark $Q --density $d > $L/ncu-$d.csv 2> $L/ncu-$d.err
  echo "ncu d=$d rc=$? at $SECONDS s"
  python3 - $L/ncu-$d.csv <<'PY'
import csv, sys, collections
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))]
rows = [r for r in rows if r.get('Metric Name') == 'gpu__time_duration.sum']
last = rows[-(len(rows) // 3):]  # three runs of the same kernels: the last
t = collections.Counter()
for r in last:
    t[r['Kernel Name'].split('(')[0].replace('void ', '').split('<')[0]] += float(r['Metric Value'].replace(',', '')) / 1000
print('  total %.0f us over %d launches' % (sum(t.values()), len(last)))
for k, v in t.most_common():
    print('  %-45s %8.1f' % (k, v))
PY
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
