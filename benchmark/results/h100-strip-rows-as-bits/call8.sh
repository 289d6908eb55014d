#!/usr/bin/env bash
# Call 8 (H100, the session's last device seconds): s against f on the
# sets call 7's second A/B should have run (its base was wrong), then
# racecheck of f on fewer cases than call 7's, which its time limit cut.
# Carry: .devcarry/gabF.tar.xz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gabF.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
R=/tmp/b/r
timeout 75 python3 benchmark/ab_compare.py --variant s=$R/s/cca_benchmark --variant f=$R/f/cca_benchmark --per-image \
  --logs $L/ab2 --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3" \
  --set 3d26-g1-labels="--dimension 3 --size 512 --connectivity full --g 1 --outputs labels" \
  --set 3d26-g16-all="--dimension 3 --size 512 --connectivity full --g 16 --outputs all" \
  --set 3d6-g1-all="--dimension 3 --size 512 --connectivity face --g 1 --outputs all" \
  --set 2d8-g1-all="--dimension 2 --size 8192 --connectivity full --g 1 --outputs all" \
  --set 2d4-g1-all="--dimension 2 --size 8192 --connectivity face --g 1 --outputs all" \
  --order "s f f s" > $L/ab2.txt 2>&1
echo "ab2 rc=$? at $SECONDS s"; grep -E "summed" $L/ab2.txt | head -30
timeout 55 compute-sanitizer --tool racecheck --error-exitcode 9 $R/f/ccaCudaBackendTest --quick --cases 2 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY|hazard" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs
echo "done at $SECONDS s"
