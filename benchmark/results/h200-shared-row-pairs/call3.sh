#!/usr/bin/env bash
# Call 3 (H200): where the slices' pass of the union-find waits, for the
# next step: ncu's full set with source counters (warp stall sampling per
# SASS instruction, -lineinfo build of main 0da8f66) of the slices' pass
# (the second LinkRunsKernel launch) at 512^3 6-conn. g = 1 d = 0.5, full
# table; and of the pairs' count (CountPrecedingPairsKernel) of 26-conn.
# at d = 0.5. The reports stay in the folder; the details and the SASS
# source page (CSV) are printed from them.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
A="--labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density 0.5 --dimension 3 --size 512"
ncu --clock-control none --set full --import-source yes --kernel-name regex:"LinkRunsKernel" --launch-skip 1 --launch-count 1 \
  -o $OUT/slices-face $X $A --connectivity face > $OUT/ncu-face.log 2>&1
echo "face rc=$? at $SECONDS s"
ncu --clock-control none --set full --import-source yes --kernel-name regex:"CountPrecedingPairsKernel" --launch-count 1 \
  -o $OUT/pairs-full $X $A --connectivity full > $OUT/ncu-full.log 2>&1
echo "full rc=$? at $SECONDS s"
for r in slices-face pairs-full; do
  echo "== $r details"
  ncu -i $OUT/$r.ncu-rep --page details 2>&1 | grep -vE "^    -+|^ *$" | head -150
  ncu -i $OUT/$r.ncu-rep --page source --csv --print-source sass > $OUT/$r-sass.csv 2> $OUT/$r-sass.err
  echo "$r sass rows: $(wc -l < $OUT/$r-sass.csv)"
done
cd $OUT && xz -T4 *-sass.csv && echo "done at $SECONDS s"
