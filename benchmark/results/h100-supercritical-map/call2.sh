#!/usr/bin/env bash
# Call 2: the placing pass's loads batched (n: four runs a thread at a
# time, the placed component's runs told by their bits, not their labels)
# against main (m): n's backend test and memcheck, the pass's registers,
# m n n m on the g = 1 sets (full table), and ncu of the pass on two
# placing images with each binary.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
for v in m n; do
  cuobjdump --dump-resource-usage /tmp/b/$v/cca_benchmark > $L/resources-$v.txt 2>&1
  echo "$v: $(grep -A1 CountPrecedingPairs $L/resources-$v.txt | grep -o 'REG:[0-9]* STACK:[0-9]* SHARED:[0-9]*' | sort | uniq -c | tr '\n' ';')"
done
timeout 200 /tmp/b/n/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|vote orders" $L/backend.log | head -12
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/b/n/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 330 python3 benchmark/ab_compare.py --logs $L/ab --variant m="/tmp/b/m/cca_benchmark" \
  --variant n="/tmp/b/n/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --order "m n n m" --per-image
echo "ab rc=$? at $SECONDS s"
for v in m n; do
  for img in "3d-face-d0.7 --dimension 3 --size 512 --connectivity face --density 0.7" \
             "2d-full-d0.6 --dimension 2 --size 8192 --connectivity full --density 0.6"; do
    set -- $img; name=$1; shift
    timeout 60 ncu --clock-control none --print-units base --csv -k regex:CountPrecedingPairs \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
      /tmp/b/$v/cca_benchmark --labels-on-device --no-atomic-counts --warmup 0 --reps 1 --outputs all --g 1 "$@" > $L/ncu-$v-$name.csv 2>&1
    echo "ncu $v $name: $(grep -c CountPreceding $L/ncu-$v-$name.csv) rows"
    python3 benchmark/ncu_kernel_table.py $L/ncu-$v-$name.csv --top 3 2>&1 | tail -2
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
