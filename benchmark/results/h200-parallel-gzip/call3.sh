#!/usr/bin/env bash
# Call 3: the new program (as in call 2) through benchmark/program-files.sh in
# both modes: each --compression with labels .nrrd + CSV, .tif, the CSV
# alone; then the label image alone in every format under each compression.
set -uo pipefail
mkdir -p $OUT/call3 && exec > >(tee $OUT/call3/log.txt) 2>&1
nvidia-smi -L; nproc
B=/tmp/b && mkdir -p $B && tar -C $B -xJf .devcarry/prog.tar.xz
export LD_LIBRARY_PATH=$B/lib
for mode in compression formats; do
  echo "#### $mode"
  bash benchmark/program-files.sh $B/cls-new $mode /tmp/cca-program-files
done
echo done
