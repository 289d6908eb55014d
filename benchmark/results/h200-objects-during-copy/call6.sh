#!/usr/bin/env bash
# Call 6 (H200): the small masks' upload by regions in smaller pieces, so
# that each copy thread's DMA overlaps its packing (--region-piece-bytes,
# the backend's test hook): the engine alone against its bound, 2 MiB (the
# default) against 256, 128 and 64 KiB, two rounds, no ITK. A measurement
# for the next change; nothing of it is the default.
set -u
mkdir -p $OUT/logs /tmp/i && tar -C /tmp/i -xJf .devcarry/e2e-bundle.tar.xz
export LD_LIBRARY_PATH=/tmp/i/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
for r in 1 2; do
  for p in 2097152 262144 131072 65536; do
    timeout 60 /tmp/i/bin/cca_e2e_benchmark --threads 16 --no-itk --reps 7 --only ct-face,ct-full,balls-60k,random2d-g16 \
      --region-piece-bytes $p > $OUT/logs/pieces-$p-$r.log 2>&1
    echo "pieces $p round $r rc=$? at $SECONDS s"
    grep -E 'engine alone [0-9]|with that read' $OUT/logs/pieces-$p-$r.log | sed 's/^ *//' | cut -c1-170
  done
done
