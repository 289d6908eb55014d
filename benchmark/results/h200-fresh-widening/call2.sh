#!/usr/bin/env bash
# Call 2: the 2.35 Gvox volume's first Update() with its 64-bit label image
# in a new block of the host image pool (cca_e2e_benchmark --only
# large-labels), the label image's pages written by the engine before the
# copy fills them (--label-pages always, the new default; src/FirstWrites.h)
# against the copy mapping them as before (--label-pages never): with CUDA
# started before the first Update() as the table's runs are (warm), and as
# a process's first Update(), CUDA's start-up in it (--cold; the pages
# beside the start-up). One binary built here (.devcarry/call2.tar.xz, the
# ITK libraries of call 3's bundle), a process per run, 8 s idle before
# each, n a a n in each mode.
set -uo pipefail
mkdir -p $OUT/call2 && exec > >(tee $OUT/call2/log.txt) 2>&1
B=/tmp/b1 && mkdir -p $B && tar -C $B -xJf .devcarry/call2.tar.xz || exit 1
mkdir -p /tmp/bundle && { [ -d /tmp/bundle/lib ] || xz -dc .devcarry/itk-bundle.tar.xz | tar -C /tmp/bundle -xf - lib; } || exit 1
export LD_LIBRARY_PATH=/tmp/bundle/lib
for mode in warm cold; do
  cold=""; [ $mode = cold ] && cold="--cold"
  for v in never always always never; do
    sleep 8; echo "== $mode, label pages $v"
    timeout 100 $B/bin/cca_e2e_benchmark-new $cold --label-pages $v --threads 16 --reps 1 --only large-labels | grep -E "^CUDA|repetition|ours-"
  done
done
echo done
