#!/usr/bin/env bash
# Call 2: the rest of call 1's sweep, the full-connectivity planes that
# call 1 did not reach, and the 6-connected volumes' last two switches;
# each set starts and ends with the default. The per-image table is in
# the printed logs.
# main bc6079d (engine as 39b2071), benchmark/make-bench-bundle.sh --slim.
set -u
mkdir -p $OUT/logs /tmp/b && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; nproc
xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/b -xf - && tar -C /tmp/b -xf /tmp/b/build.tar
export LD_LIBRARY_PATH=/tmp/b/lib
B=/tmp/b/build-gpu/benchmark/cca_benchmark
SECONDS=0
run() { # set name, set args, then variants as name=args
  local set=$1 args=$2; shift 2
  local vs=(--variant "d=$B") order="d"
  for v in "$@"; do vs+=(--variant "${v%%=*}=$B ${v#*=}"); order+=" ${v%%=*}"; done
  order+=" d"
  timeout 330 python3 benchmark/ab_compare.py --logs $OUT/logs/$set "${vs[@]}" \
    --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs all --g 1" \
    --set "$set=$args" --order "$order" --per-image --timeout 60 > $OUT/logs/$set.txt 2>&1
  echo "$set rc=$? at $SECONDS s"
}
run 2d-full "--dimension 2 --size 8192 --connectivity full" \
  rbA="--row-bit-links always" rbN="--row-bit-links never" wcA="--whole-components always" \
  laA="--largest-apart always" lsA="--largest-subtracted always" lsN="--largest-subtracted never" \
  stA="--strip-labeling always" srN="--shared-row-links never" qmN="--queued-merges never" fpA="--full-pairs-after-labels"
run 3d-face "--dimension 3 --size 512 --connectivity face" qmN="--queued-merges never" ssN="--no-side-stream"
for s in 2d-full 3d-face; do echo "== $s"; cat $OUT/logs/$s.txt; done
rm -rf $OUT/logs
echo "done at $SECONDS s"
