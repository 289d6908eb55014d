#!/usr/bin/env bash
# Call 2: the same for labels only (ncu of every kernel a image), and the
# 3D full table's timed run again (call 1's JSON did not come back: the
# call returns at most eight files, so everything is one archive here).
set -u
mkdir -p $OUT/w/ncu-labels /tmp/b && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
xz -dc .devcarry/cca_benchmark-main.xz > /tmp/b/cca_benchmark && chmod +x /tmp/b/cca_benchmark
B=/tmp/b/cca_benchmark
W=$OUT/w
SECONDS=0
for set in "2 8192 face" "2 8192 full" "3 512 face"; do
  read dim size conn <<< "$set"
  $B --labels-on-device --outputs labels --g 1 --dimension $dim --size $size --connectivity $conn \
    --json $W/labels-$dim-$conn.json > $W/labels-$dim-$conn.log 2>&1
  echo "timed labels $dim $conn rc=$? at $SECONDS s"
done
$B --labels-on-device --outputs all --g 1 --dimension 3 --size 512 --connectivity face \
  --json $W/time-3-face.json > $W/time-3-face.log 2>&1
echo "timed all 3 face rc=$? at $SECONDS s"
for set in "2 8192 face" "2 8192 full" "3 512 face"; do
  read dim size conn <<< "$set"
  for d in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1; do
    TOP=0 bash benchmark/ncu_kernel_map.sh $B $W/ncu-labels ${dim}d-$conn-d$d --outputs labels --g 1 \
      --dimension $dim --size $size --connectivity $conn --density $d > /dev/null
    echo "ncu labels ${dim}d $conn d=$d at $SECONDS s"
  done
done
python3 benchmark/results/h100-pass-bytes-floor/floor.py $W/ncu-labels $W/labels-*.json --labels-only \
  --copy-tbps 3.03 | tee $OUT/floor-labels.txt
cd $OUT && tar czf call2.tgz w && rm -rf w
