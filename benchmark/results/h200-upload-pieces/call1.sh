#!/usr/bin/env bash
# Call 1 (H200): upload pieces of copies by regions. One binary; the
# variant is --region-piece-bytes (0 = the default 2 MiB). Upload (and,
# with --outputs all, download) medians of an image in host memory.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; nproc
B=/tmp/b/p/build-gpu/benchmark/cca_benchmark
C="--no-atomic-counts --warmup 2 --reps 15 --connectivity face"
declare -A SET
SET[p8k-g4]="--dimension 2 --size 8192 --g 4 --density 0.5"
SET[v512-g4]="--dimension 3 --size 512 --g 4 --density 0.3"
SET[p8k-g4-all]="--dimension 2 --size 8192 --g 4 --density 0.5 --outputs all"
for set in p8k-g4 v512-g4 p8k-g4-all; do
  for piece in 0 524288 262144 131072 65536 65536 131072 262144 524288 0; do
    n=$L/$set-$piece-$RANDOM
    timeout 60 $B $C ${SET[$set]} --region-piece-bytes $piece --json $n.json > $n.log 2>&1
    python3 - "$n.json" "$set" "$piece" <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
m=[x for x in d["measurements"] if not x["allForeground"]]
x=m[0]
print(f'{sys.argv[2]:12s} piece {int(sys.argv[3]):8d}: upload {x["uploadMs"]:.3f} label {x["labelMs"]:.3f} features {x["featuresMs"]:.3f} download {x["downloadMs"]:.3f} total {x["totalMs"]:.3f} ms')
PY
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
