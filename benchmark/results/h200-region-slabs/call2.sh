#!/usr/bin/env bash
# Call 2 (H200): B = main (6370750) against N = the regions handed on in
# order (call 1's code), and N8 = the same with slabs an eighth of the
# default in the region path (CCA_EXP_REGION_SLAB_DIVISOR=8, an experiment
# hook not committed: the regions then hand on about one slab each).
# cca_e2e_benchmark without ITK, 9 repetitions, B N N8 rotated five times.
set -u
L=$OUT/logs; mkdir -p $L /tmp/i
tar -C /tmp/i -xJf .devcarry/e2e-bundle.tar.xz
I=/tmp/i/bin
export LD_LIBRARY_PATH=/tmp/i/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt
for round in 1 2 3 4 5; do
  for v in B N N8; do
    X=$I/cca_e2e_benchmark; [[ $v == B ]] && X=$I/cca_e2e_benchmark_before
    if [[ $v == N8 ]]; then export CCA_EXP_REGION_SLAB_DIVISOR=8; else unset CCA_EXP_REGION_SLAB_DIVISOR; fi
    timeout 100 $X --threads 16 --no-itk --reps 9 --only ct-face,ct-full,balls-60k,random2d-g16,random2d-g4,random3d-g4 > $L/e2e-$v$round.log 2>&1
    echo "e2e $v$round rc=$? at $SECONDS s"
    grep -E '^== |engine alone|with that read' $L/e2e-$v$round.log | sed 's/^ *//; s/(made in.*//' | cut -c1-200
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
