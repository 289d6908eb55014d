#!/usr/bin/env bash
# Call 4 (H200): N, large uploads in pieces that the copy threads produce
# into a pinned ring (taken in order from a shared counter) while the
# calling thread copies each as soon as it is there, the only thread that
# calls CUDA (HostStaging::UploadInPieces), against B = main (564f116).
# cca_e2e_benchmark without ITK, 9 repetitions, B N alternating four
# times; large-labels once each. N reads the mask for its bound in pieces
# from a shared counter too, B in one region a thread.
set -u
L=$OUT/logs; mkdir -p $L /tmp/i
tar -C /tmp/i -xJf .devcarry/e2e-bundle.tar.xz
G=/tmp/b/build-gpu; I=/tmp/i/bin
export LD_LIBRARY_PATH=/tmp/i/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt
for v in B1 N1 B2 N2 B3 N3 B4 N4; do
  X=$I/cca_e2e_benchmark; [[ $v == B* ]] && X=$I/cca_e2e_benchmark_before
  timeout 100 $X --threads 16 --no-itk --reps 9 --only ct-face,ct-full,balls-60k,random3d-g4,random2d-g16,random2d-g4 > $L/small-$v.log 2>&1
  echo "small $v rc=$? at $SECONDS s"
  grep -E '^== |engine alone|with that read' $L/small-$v.log | sed 's/^ *//; s/(made in.*//' | cut -c1-200
done
for v in B N; do
  X=$I/cca_e2e_benchmark; [[ $v == B ]] && X=$I/cca_e2e_benchmark_before
  timeout 120 $X --threads 16 --no-itk --reps 4 --only large-labels > $L/large-$v.log 2>&1; echo "large-labels $v rc=$? at $SECONDS s"
  grep -E 'ours-|engine alone 1|engine alone, repetition' $L/large-$v.log | cut -c1-200
done
CUDA_INJECTION64_PATH=$PWD/.devcarry/libtimeline.so TIMELINE_OUT=$OUT/timeline-ct-face-N.tsv timeout 120 $I/cca_e2e_benchmark --threads 16 --no-itk --reps 5 --only ct-face > $L/timeline-N.log 2>&1
echo "timeline N rc=$? at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
