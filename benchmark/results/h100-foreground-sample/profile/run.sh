# ncu per-kernel durations, labels only, one image per case
mkdir -p $OUT/logs; nvidia-smi -L > $OUT/logs/device.txt
B=./build/benchmark/cca_benchmark
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" >> $OUT/logs/device.txt
prof() { # name dim conn d extra...
  name=$1; dim=$2; conn=$3; d=$4; shift 4
  size=8192; [ $dim = 3 ] && size=512
  timeout 120 $NCU --metrics gpu__time_duration.sum --csv $B --dimension $dim --size $size --g 1 --density $d --connectivity $conn --reps 1 --warmup 0 --outputs labels --labels-on-device --no-atomic-counts "$@" > $OUT/logs/$name.csv 2> $OUT/logs/$name.err
  echo "=== $name" >> $OUT/logs/prof.txt
  python3 .devcarry/ncusum.py $OUT/logs/$name.csv >> $OUT/logs/prof.txt 2>&1
}
for d in 0.3 0.5; do
  prof 2full-$d 2 full $d
  prof 2face-$d 2 face $d
  prof 3full-$d 3 full $d
  prof 3face-$d 3 face $d
done
prof 3full-0.9 3 full 0.9
prof 3full-0.9-blocks 3 full 0.9 --block-labeling always
prof 3full-0.1-blocks 3 full 0.1 --block-labeling always
# per image timings: 3D 26-conn blocks always vs never, g=1
for m in always never; do
  $B --dimension 3 --size 512 --g 1 --connectivity full --reps 5 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts --block-labeling $m --json $OUT/logs/k3-$m.json > $OUT/logs/k3-$m.log 2>&1
done
cd $OUT/logs && tar czf ../logs.tgz . && cp prof.txt device.txt ../
