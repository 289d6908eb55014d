#!/usr/bin/env bash
# Call 6 (H200): the program with the analysis's objects released on a
# thread that nothing waits for (B) against call 5's program, which joins
# that thread after the outputs' flush (A): benchmark/program-files.sh
# (512^3 g = 4, labels under each compression, TIFF, CSV alone), A B
# alternated three times; "process" is the wall time to the exit.
set -u
mkdir -p $OUT/logs
B=/tmp/bench-bundle; mkdir -p $B /tmp/r
xz -dc .devcarry/bench-bundle.tar.xz | tar -C $B -xf - && tar -C /tmp/r -xf $B/build.tar
xz -dc .devcarry/progB.xz > /tmp/progB && chmod +x /tmp/progB
export LD_LIBRARY_PATH=$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
for k in 1 2 3; do
  for v in A B; do
    P=/tmp/r/build-gpu/bin/CudaLabelStatistics; [ $v = B ] && P=/tmp/progB
    timeout 90 bash benchmark/program-files.sh $P compression /tmp/pf > $OUT/logs/program-$k-$v.log 2>&1
    echo "$k $v rc=$? at $SECONDS s"
    awk '/^==/{n=$0} /time:/{t=$3; for(i=1;i<=NF;i++) if($i=="other") o=$(i+1); for(i=1;i<=NF;i++) if($i=="rename") s=$(i+1)} /process:/{printf "  %-75s total %7s sync %6s other %6s process %5s exit %4d\n", n, t, s, o, $2, $2-t}' $OUT/logs/program-$k-$v.log
  done
done
echo "done at $SECONDS s"
