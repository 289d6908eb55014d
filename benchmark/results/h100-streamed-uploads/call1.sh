#!/usr/bin/env bash
# Call 1 (written 2026-12-06 in the ninety-sixth session, when no device
# could be had; run in the ninety-seventh on an H100): streamed uploads (HostStaging::UploadStreamed)
# against the copies by regions, one binary: cca_e2e_benchmark --no-itk,
# engine alone, r (then the default: by regions) and s (--streamed-uploads on)
# alternated four times, best of 7 each, on the masks whose bits would be
# streamed (4 to 32 MiB of bits). Then the GPU test suite (every CUDA
# and ITK test; ccaCudaBackendTest's new "streamed uploads" checks: host
# masks of widths that are multiples of 16 streamed in pieces of 16 bytes
# up, each checked streamed), compute-sanitizer memcheck and racecheck on
# the usual subset, and the program's demo (scripts/gpu-machine-check.sh
# on build-gpu's bundle).
set -u
mkdir -p /tmp/k $OUT/logs
xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/k -xf - && tar -C /tmp/k -xf /tmp/k/build.tar
export LD_LIBRARY_PATH=/tmp/k/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
B=/tmp/k/build-gpu/benchmark/cca_e2e_benchmark
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
M=ct-face,ct-full,balls-60k,random2d-g16,random3d-g4,random2d-g4
for k in 1 2 3 4; do
  for v in r s; do
    a=""; [ $v = s ] && a="--streamed-uploads on"
    timeout 60 $B --no-itk --threads 16 --reps 7 --only $M $a > $OUT/logs/e2e-$k-$v.log 2>&1
    echo "$k $v rc=$? at $SECONDS s, $(grep -h '^uploads streamed' $OUT/logs/e2e-$k-$v.log)"
  done
done
for v in r s; do
  echo "== $v: engine alone ms | upload ms | engine/bound with the mask's read, per mask, runs 1..4"
  for mask in ct-face ct-full balls-60k random2d-g16 random3d-g4 random2d-g4; do
    e=""; u=""; b=""
    for k in 1 2 3 4; do
      f=$OUT/logs/e2e-$k-$v.log
      e="$e $(awk -v m=$mask '$1=="=="{c=($2==m":")} c && /engine alone [0-9]/{print $3; exit}' $f)"
      u="$u $(awk -v m=$mask '$1=="=="{c=($2==m":")} c && /engine alone [0-9]/{print $9; exit}' $f)"
      b="$b $(awk -v m=$mask '$1=="=="{c=($2==m":")} c && /with that read in the upload/{print $NF; exit}' $f)"
    done
    echo "$mask engine:$e | up:$u | e/b:$b"
  done
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "A/B done at $SECONDS s"
BUILD=build-gpu timeout $((590 - SECONDS)) bash scripts/gpu-machine-check.sh > $OUT/gpu-check.txt 2>&1
cat $OUT/gpu-check.txt
echo "== the streamed checks under memcheck and racecheck"
grep -h "streamed uploads" $OUT/memcheck.log $OUT/racecheck.log
echo "done at $SECONDS s"
