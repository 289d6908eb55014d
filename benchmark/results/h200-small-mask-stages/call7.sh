#!/usr/bin/env bash
# Call 7 (H200): issue 10's table with call 6's N (the shape attributes'
# principal axes from netlib's rs on the stack): Update() of a fresh filter
# per repetition against ITK 5.2.1's BinaryImageToShapeLabelMapFilter on 16
# threads in the same process, best of 3, objects checked against ITK's
# (as h200-objects-during-copy call 5).
set -u
mkdir -p $OUT/logs /tmp/i && tar -C /tmp/i -xJf .devcarry/e2e-bundle.tar.xz
export LD_LIBRARY_PATH=/tmp/i/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
timeout 480 /tmp/i/bin/cca_e2e_benchmark --threads 16 --only ct-face,ct-full,balls-60k,random3d-g4,random3d-g1,random2d-g16,random2d-g4,random2d-g1 \
  --json $OUT/e2e.json > $OUT/logs/e2e.log 2>&1
echo "e2e rc=$? at $SECONDS s"
grep -E '^(mask|ct-|balls|random|  |CUDA)' $OUT/logs/e2e.log | head -60
