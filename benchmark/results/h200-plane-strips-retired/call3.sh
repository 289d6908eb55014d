#!/usr/bin/env bash
# Call 3 (H200): the committed rule's binary (call 1's j) with the table's
# automatic choices forced either way, against its own default (d), full
# table, g = 1: whether any threshold set before the queued merges and
# events still holds. 8192^2 4-conn. (largest component apart never,
# whole components never / always, queued merges never), 8-conn. (the
# same but shared row links never for the queue), 512^3 6-conn. (whole
# components never / always). About 280 s.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
J=/tmp/b/j/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 1"
python3 benchmark/ab_compare.py --logs $OUT/logs/face2 --variant d="$J" --variant la="$J --largest-apart never" \
  --variant wn="$J --whole-components never" --variant wa="$J --whole-components always" --variant qn="$J --queued-merges never" \
  --common "$C" --set 2d-face="--dimension 2 --size 8192 --connectivity face" --order "d la wn wa qn d"
python3 benchmark/ab_compare.py --logs $OUT/logs/full2 --variant d="$J" --variant la="$J --largest-apart never" \
  --variant wn="$J --whole-components never" --variant wa="$J --whole-components always" --variant sn="$J --shared-row-links never" \
  --common "$C" --set 2d-full="--dimension 2 --size 8192 --connectivity full" --order "d la wn wa sn d"
if [ $SECONDS -lt 230 ]; then
  python3 benchmark/ab_compare.py --logs $OUT/logs/face3 --variant d="$J" \
    --variant wn="$J --whole-components never" --variant wa="$J --whole-components always" \
    --common "$C" --set 3d-face="--dimension 3 --size 512 --connectivity face" --order "d wn wa d"
fi
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
