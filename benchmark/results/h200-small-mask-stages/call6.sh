#!/usr/bin/env bash
# Call 6 (H200): N, the shape attributes with the principal axes from
# netlib's rs on the stack (the routine vnl_symmetric_eigensystem calls,
# without its heap blocks) and the moments summed in locals, against B =
# main (564f116). cca_e2e_benchmark with ITK 5.2.1 on 16 threads in the
# same process (its objects checked against ITK's), 7 repetitions, one of
# ITK, B N alternating three times.
set -u
L=$OUT/logs; mkdir -p $L /tmp/i
tar -C /tmp/i -xJf .devcarry/e2e-bundle.tar.xz
I=/tmp/i/bin
export LD_LIBRARY_PATH=/tmp/i/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt
for v in B1 N1 B2 N2 B3 N3; do
  X=$I/cca_e2e_benchmark; [[ $v == B* ]] && X=$I/cca_e2e_benchmark_before
  timeout 100 $X --threads 16 --reps 7 --itk-reps 1 --only ct-face,ct-full,balls-60k,random2d-g16,random2d-g4 > $L/e2e-$v.log 2>&1
  echo "$v rc=$? at $SECONDS s"
  grep -E '^(ct-|balls|random)' $L/e2e-$v.log | grep -v ' itk '
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
