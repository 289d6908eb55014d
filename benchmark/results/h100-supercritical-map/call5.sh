#!/usr/bin/env bash
# Call 5: the placing pass lists the runs it leaves to search (l) instead
# of searching them in each tile, and a second kernel searches the list
# on a resident grid; against main (n, de3a089): l's backend test,
# memcheck and racecheck, n l l n on the g = 1 sets (full table), ncu of
# the pass and the listed searches.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab3.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
timeout 200 /tmp/b/l/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|largest" $L/backend.log | head -12
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/b/l/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/b/l/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
timeout 300 python3 benchmark/ab_compare.py --logs $L/ab --variant n="/tmp/b/n/cca_benchmark" \
  --variant l="/tmp/b/l/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --order "n l l n" --per-image
echo "ab rc=$? at $SECONDS s"
for v in n l; do
  for img in "3d-face-d0.7 --dimension 3 --size 512 --connectivity face --density 0.7" \
             "3d-face-d0.5 --dimension 3 --size 512 --connectivity face --density 0.5" \
             "2d-full-d0.6 --dimension 2 --size 8192 --connectivity full --density 0.6"; do
    set -- $img; name=$1; shift
    timeout 60 ncu --clock-control none --print-units base --csv -k regex:PairsKernel \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
      /tmp/b/$v/cca_benchmark --labels-on-device --no-atomic-counts --warmup 0 --reps 1 --outputs all --g 1 "$@" > $L/ncu-$v-$name.csv 2>&1
    echo "ncu $v $name:"; python3 benchmark/ncu_kernel_table.py $L/ncu-$v-$name.csv --top 2 2>&1 | tail -2
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
