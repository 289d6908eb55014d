#!/usr/bin/env bash
# Call 1 (H200): where the full table's time goes between its kernels. Per
# image, the benchmark's stage times (median of 20) beside the sum of the
# kernels' times by ncu (caches kept, clocks free) and, where nsys exists,
# the timeline's gaps. Everything packed in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt; (which nsys; nsys --version) > $L/nsys.txt 2>&1
K="$B/benchmark/cca_benchmark --labels-on-device --no-atomic-counts"
$K --reps 3 --warmup 1 --outputs all --dimension 2 --size 8192 --g 4 --connectivity face > /dev/null 2>&1
img() { case $1 in
  2d4) echo "--dimension 2 --size 8192 --connectivity face";; 2d8) echo "--dimension 2 --size 8192 --connectivity full";;
  3d6) echo "--dimension 3 --size 512 --connectivity face";; 3d26) echo "--dimension 3 --size 512 --connectivity full";; esac; }
for c in "2d4 4 0.5" "2d8 4 0.5" "3d6 4 0.5" "3d26 4 0.5" "2d4 1 1" "3d6 1 1" "2d4 16 0.5" "2d4 1 0.3"; do
  set -- $c; n=$1-g$2-d$3
  timeout 40 $K --reps 20 --warmup 2 --outputs all $(img $1) --g $2 --density $3 > $L/stages-$n.log 2>&1
  timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv --print-units base \
    $K --reps 1 --warmup 1 --outputs all $(img $1) --g $2 --density $3 > $L/ncu-$n.csv 2> $L/ncu-$n.err
  echo "$n rc=$? at $SECONDS s: $(grep '^Default' $L/stages-$n.log | head -1)"
done
if which nsys > /dev/null 2>&1; then
  for c in "2d4 4 0.5" "3d26 4 0.5" "2d4 1 1"; do
    set -- $c; n=$1-g$2-d$3
    timeout 90 nsys profile -o $L/nsys-$n --force-overwrite true -t cuda $K --reps 3 --warmup 1 --outputs all $(img $1) --g $2 --density $3 > $L/nsys-$n.log 2>&1
    timeout 60 nsys stats -r cuda_gpu_trace -f csv -o $L/trace-$n $L/nsys-$n.nsys-rep > /dev/null 2>&1
    echo "nsys $n rc=$? at $SECONDS s"; rm -f $L/nsys-$n.nsys-rep $L/nsys-$n.sqlite
  done
fi
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
