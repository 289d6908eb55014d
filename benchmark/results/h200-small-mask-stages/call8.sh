#!/usr/bin/env bash
# Call 8 (H200): N, the objects' downloads gathered (the table, the run
# offsets, the runs, the keys: copies queued back to back into one pinned
# buffer, each written out while the next ones cross; StreamDevice::
# DownloadLater), against B = main with the shape attributes' change
# (cef1dd5). cca_e2e_benchmark without ITK, 9 repetitions, B N alternated
# four times.
set -u
L=$OUT/logs; mkdir -p $L /tmp/i
tar -C /tmp/i -xJf .devcarry/e2e-bundle.tar.xz
I=/tmp/i/bin
export LD_LIBRARY_PATH=/tmp/i/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt
for v in B1 N1 B2 N2 B3 N3 B4 N4; do
  X=$I/cca_e2e_benchmark; [[ $v == B* ]] && X=$I/cca_e2e_benchmark_before
  timeout 100 $X --threads 16 --no-itk --reps 9 --only ct-face,ct-full,balls-60k,random2d-g16 > $L/small-$v.log 2>&1
  echo "small $v rc=$? at $SECONDS s"
  grep -E '^== |engine alone|with that read' $L/small-$v.log | sed 's/^ *//; s/(made in.*//' | cut -c1-200
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
