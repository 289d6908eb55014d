#!/usr/bin/env bash
# The label image written raw: the program's own NRRD writer against ITK's
# NIfTI (.nii) and Analyze/NIfTI pair (.hdr + .img) writers, which the
# program still leaves to ITK. 512^3 g = 4 d = 0.3 (seed 3), CPU backend,
# files in tmpfs (/dev/shm), the three formats alternated.
# Usage: run.sh PROGRAM [ROUNDS]
set -uo pipefail
program=$(realpath "$1")
rounds=${2:-4}
work=/dev/shm/cca-nifti-raw
mkdir -p "$work" && cd "$work" || exit 1
"$program" --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd \
  --compression none --csv /dev/null --quiet || exit 1
for ((r = 1; r <= rounds; ++r)); do
  for f in nrrd nii hdr; do
    "$program" in.nrrd --backend cpu --labels "labels.$f" --compression none > summary.txt || exit 1
    echo "round $r .$f: $(grep -E '^write:' summary.txt) ($(du -bc labels.* | tail -1 | cut -f1) bytes)"
    rm -f labels.* summary.txt
  done
done
rm -rf "$work"
