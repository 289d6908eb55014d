#!/usr/bin/env bash
# Call 1 (H200): the program's CSV table formatted in chunks of rows on ITK's
# threads (app/CsvWriter.cpp, n) against one thread formatting every row
# (o, main c00eccb). The program through its files, one process per run
# (CUDA start-up included), o n n o: the 512^3 g = 4 mask of issue 10's
# program row (123,993 components) and a 256^3 g = 1 mask (1.43 M), labels
# as uncompressed NRRD and the CSV, then the CSV alone; the tables of o and n
# compared byte for byte. Then the 512^3 g = 1 mask (11.4 M components),
# CSV alone, o then n. Carry: the slim bench bundle of n and
# .devcarry/extra.tar.xz (o's stripped program).
set -u
mkdir -p /tmp/bundle /tmp/x $OUT/logs
xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/bundle -xf - && tar -C . -xf /tmp/bundle/build.tar
xz -dc .devcarry/extra.tar.xz | tar -C /tmp/x -xf -
export LD_LIBRARY_PATH=/tmp/bundle/lib
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
declare -A BIN=([o]=/tmp/x/program_old [n]=$PWD/build-bench/bin/CudaLabelStatistics)
W=/tmp/w && mkdir -p $W && cd $W || exit 1
${BIN[n]} --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput g4.nrrd --compression none --csv /dev/null --quiet
${BIN[n]} --defaultSize 256x256x256 --density 0.2 --granularity 1 --seed 3 --saveInput g1s.nrrd --compression none --csv /dev/null --quiet
${BIN[n]} --defaultSize 512x512x512 --density 0.2 --granularity 1 --seed 3 --saveInput g1.nrrd --compression none --csv /dev/null --quiet
echo "inputs made at $SECONDS s"
k=0
for v in o n n o; do
  k=$((k + 1))
  for m in g4 g1s; do
    echo "== $k $v $m: labels + CSV"
    ${BIN[$v]} $m.nrrd --labels labels.nrrd --csv $m-$v.csv > $OUT/logs/$k-$v-$m.log 2>&1; echo "rc=$?"
    grep -E '^(components|time|write):' $OUT/logs/$k-$v-$m.log
    echo "== $k $v $m: CSV alone"
    ${BIN[$v]} $m.nrrd --csv $m-$v.csv > $OUT/logs/$k-$v-$m-csv.log 2>&1; echo "rc=$?"
    grep -E '^(time|write):' $OUT/logs/$k-$v-$m-csv.log
  done
done
for m in g4 g1s; do cmp $m-o.csv $m-n.csv && echo "$m: o and n tables identical ($(stat -c %s $m-n.csv) bytes)"; done
rm -f *.csv labels.nrrd
for v in o n; do
  echo "== $v g1 (512^3): CSV alone"
  timeout 200 ${BIN[$v]} g1.nrrd --csv g1-$v.csv > $OUT/logs/g1-$v.log 2>&1; echo "rc=$?"
  grep -E '^(components|time|write):' $OUT/logs/g1-$v.log
done
cmp g1-o.csv g1-n.csv && echo "g1: o and n tables identical ($(stat -c %s g1-n.csv) bytes)"
rm -f *.csv
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
