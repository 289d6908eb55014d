#!/usr/bin/env bash
# Call 3 (H200): m and n alternated eight times each on the small masks
# (cca_e2e_benchmark --no-itk --reps 7): the idle device state's gain
# against the host's spread.
set -u
mkdir -p /tmp/k $OUT/logs
xz -dc .devcarry/pk1.tar.xz | tar -C /tmp/k -xf -
export LD_LIBRARY_PATH=/tmp/k/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
M=ct-face,ct-full,balls-60k,random2d-g16,random3d-g4
for k in 1 2 3 4 5 6 7 8; do
  for v in m n; do
    timeout 60 /tmp/k/$v/cca_e2e_benchmark --no-itk --threads 16 --reps 7 --only $M > $OUT/logs/e2e-$k-$v.log 2>&1
    echo "$k $v rc=$? at $SECONDS s"
  done
done
for v in m n; do
  echo "== $v: engine alone ms, per mask, runs 1..8; then Update ms; then mask read ms"
  for mask in ct-face ct-full balls-60k random2d-g16 random3d-g4; do
    e=""; u=""; r=""
    for k in 1 2 3 4 5 6 7 8; do
      f=$OUT/logs/e2e-$k-$v.log
      e="$e $(awk -v m=$mask '$1=="=="{c=($2==m":")} c && /engine alone [0-9]/{print $3; exit}' $f)"
      u="$u $(awk -v m=$mask '$1==m && $2=="ours-cuda"{print $4; exit}' $f)"
      r="$r $(awk -v m=$mask '$1=="=="{c=($2==m":")} c && /mask read once/{print $9; exit}' $f)"
    done
    echo "$mask engine:$e | update:$u | read:$r"
  done
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
