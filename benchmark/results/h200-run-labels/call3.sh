#!/usr/bin/env bash
# Call 3 (H200): the run count's loads. N = call 1's
# N (the strip runs' labels before the image), V1 = N with the count
# kernel loading 4 stretches of a wide row before testing them and 8
# rows of one stretch (512^3) a warp (V2, 2 stretches, was built but
# not carried: the working tree's 64 MiB). Labels only, g = 1, N V1 twice: 8192^2 8-conn., 512^3
# 26-conn.; then ncu of CountByteRunsKernel (clocks and caches left
# alone), d = 0.5, every binary.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/perf.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1"
for c in "2 8192" "3 512"; do set -- $c
  for r in 1 2; do for v in n v1; do
    X=/tmp/b/$v/cca_benchmark; t=$1d-$v$r
    timeout 60 $X $P --dimension $1 --size $2 --connectivity full --json $L/$t.json > $L/$t.log 2>&1
    echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
    grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
  done; done
done
for c in "2 8192" "3 512"; do set -- $c
  for v in n v1; do
    Q="--labels-on-device --no-atomic-counts --outputs labels --g 1 --dimension $1 --size $2 --connectivity full --density 0.5 --warmup 1 --reps 1"
    timeout 60 ncu --clock-control none --cache-control none -k regex:CountByteRuns --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed --csv /tmp/b/$v/cca_benchmark $Q > $L/ncu-$1d-$v.csv 2> $L/ncu-$1d-$v.err
    echo "ncu $1D $v: $(grep '^"' $L/ncu-$1d-$v.csv | tail -n 4 | awk -F'","' '{printf "%s %s; ", $(NF-2), $NF}' | tr -d '"')"
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
