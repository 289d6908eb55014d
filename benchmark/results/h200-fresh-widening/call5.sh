#!/usr/bin/env bash
# Call 5 (the machine of calls 3-4): call 2 once more in each mode, warm n a
# a n and cold a n, then the probe at the label image's size (18.8 GB, 16
# threads) at once after the run before: the engine's download pattern
# against a first pass over the pages.
set -uo pipefail
mkdir -p $OUT/call5 && exec > >(tee $OUT/call5/log.txt) 2>&1
B=/tmp/b1 && mkdir -p $B && tar -C $B -xJf .devcarry/call2.tar.xz || exit 1
mkdir -p /tmp/bundle && { [ -d /tmp/bundle/lib ] || xz -dc .devcarry/itk-bundle.tar.xz | tar -C /tmp/bundle -xf - lib; } || exit 1
export LD_LIBRARY_PATH=/tmp/bundle/lib
SECONDS=0
run() { # mode pages
  local cold=""; [ $1 = cold ] && cold="--cold"
  sleep 8; echo "== $1, label pages $2"
  timeout 100 $B/bin/cca_e2e_benchmark-new $cold --label-pages $2 --threads 16 --reps 1 --only large-labels | grep -E "^CUDA|repetition|ours-"
}
run warm never; run warm always; run warm always; run warm never
run cold always; run cold never
echo "e2e done at $SECONDS s"
D=benchmark/results/h200-fresh-widening
g++ -O2 -std=c++17 -pthread $D/fresh-widening-probe.cpp -o /tmp/fwp || exit 1
for mode in widen-stream prefault-stream widen-stream prefault-stream; do timeout 60 /tmp/fwp $mode 18.8 16; done
echo "done at $SECONDS s"
