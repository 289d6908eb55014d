#!/usr/bin/env bash
# Call 1: every runtime switch of cca_benchmark that changes the full
# table's path, against the default, on issue 13's three unmet g = 1 sets
# (labels + runs + full table, labels in device memory): 512^3 6-conn.,
# 8192^2 4- and 8-conn. Per image, so that each density's fastest choice
# shows: whether a threshold tuned before later changes has moved.
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
  timeout 400 python3 benchmark/ab_compare.py --logs $OUT/logs/$set "${vs[@]}" \
    --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs all --g 1" \
    --set "$set=$args" --order "$order" --per-image --timeout 60 > $OUT/logs/$set.txt 2>&1
  echo "$set rc=$? at $SECONDS s"
}
run 3d-face "--dimension 3 --size 512 --connectivity face" \
  rbA="--row-bit-links always" voN="--vote-order never" wcA="--whole-components always" wcN="--whole-components never" \
  ntN="--narrow-table never" laA="--largest-apart always" laN="--largest-apart never" \
  lsA="--largest-subtracted always" lsN="--largest-subtracted never" f16="--link-fan-in 16" f256="--link-fan-in 256" \
  br64="--link-block-rows 64" br256="--link-block-rows 256" srN="--shared-row-links never" qmN="--queued-merges never" \
  ssN="--no-side-stream" reN="--run-end-index never"
run 2d-face "--dimension 2 --size 8192 --connectivity face" \
  rbA="--row-bit-links always" rbN="--row-bit-links never" wcA="--whole-components always" wcN="--whole-components never" \
  ptN="--planar-table never" laA="--largest-apart always" laN="--largest-apart never" \
  lsA="--largest-subtracted always" lsN="--largest-subtracted never" f4="--link-fan-in 4" f16="--link-fan-in 16" \
  srN="--shared-row-links never" qmN="--queued-merges never" ssN="--no-side-stream" reN="--run-end-index never"
run 2d-full "--dimension 2 --size 8192 --connectivity full" \
  rbA="--row-bit-links always" rbN="--row-bit-links never" wcA="--whole-components always" wcN="--whole-components never" \
  ptN="--planar-table never" laA="--largest-apart always" laN="--largest-apart never" \
  lsA="--largest-subtracted always" lsN="--largest-subtracted never" stA="--strip-labeling always" \
  srN="--shared-row-links never" qmN="--queued-merges never" ssN="--no-side-stream" fpA="--full-pairs-after-labels"
for s in 3d-face 2d-face 2d-full; do echo "== $s"; grep -v "^run " $OUT/logs/$s.txt | tail -60; done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $OUT/logs
echo "done at $SECONDS s"
