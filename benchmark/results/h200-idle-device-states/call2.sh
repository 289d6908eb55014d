#!/usr/bin/env bash
# Call 2 (H200): why n's host ran slower in call 1 (the mask read by the
# benchmark's own threads 2.5x slower on the first masks): per-thread CPU
# time of m and n on the CT masks, sampled from /proc.
set -u
mkdir -p /tmp/k $OUT/logs
xz -dc .devcarry/pk1.tar.xz | tar -C /tmp/k -xf -
export LD_LIBRARY_PATH=/tmp/k/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
sample() { # pid out
  while kill -0 $1 2>/dev/null; do
    for t in /proc/$1/task/*; do
      [ -r $t/stat ] && echo "$(date +%s.%N) $(basename $t) $(cut -d' ' -f2,14,15 $t/stat 2>/dev/null)"
    done
    sleep 0.2
  done > $2
}
for v in m n; do
  E=/tmp/k/$v/cca_e2e_benchmark
  $E --no-itk --threads 16 --reps 7 --only ct-face,ct-full,balls-60k > $OUT/logs/e2e-$v.log 2>&1 &
  pid=$!
  sample $pid $OUT/logs/threads-$v.txt &
  wait $pid; echo "$v rc=$? at $SECONDS s"
  sleep 0.5
  grep -E "engine alone|mask read|ours-cuda" $OUT/logs/e2e-$v.log | sed 's/, kernels.*bound/; bound/'
  # threads by CPU ticks consumed (last sample minus first)
  awk '{k=$2" "$3; if(!(k in f)){f[k]=$4+$5} l[k]=$4+$5} END{for(k in l) if(l[k]-f[k]>5) print l[k]-f[k], k}' $OUT/logs/threads-$v.txt | sort -rn | head -20
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
