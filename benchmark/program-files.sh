#!/usr/bin/env bash
# The CudaLabelStatistics program through its files (issue 10, item 4): the
# 512^3 random mask of the end-to-end table (g = 4, d = 0.3, seed 3) is
# written once as a raw NRRD, then read, analysed and written back by one
# process per run, CUDA start-up included. Mode "compression": the label image
# (.nrrd) and the CSV table under each --compression (auto, the default, is
# fast for .nrrd), the label image as .tif (fast), and the table alone.
# Mode "formats": the label image alone in each format, under each
# compression where the format has one. Prints the program's summary lines
# (read, analysis with engine and LabelMap, CUDA start-up, each write). The
# input is read from the page cache (it was just written); the program
# flushes the outputs to disk when it commits them ("sync and rename" in its
# summary's time line, after the writes); "process" is the wall time from
# the program's start to its exit, as its caller waits.
# Usage: benchmark/program-files.sh PROGRAM [compression|formats] [WORKDIR]
set -uo pipefail
program=$(realpath "$1")
mode=${2:-compression}
work=${3:-/tmp/cca-program-files}
mkdir -p "$work" && cd "$work" || exit 1
if [[ ! -f in.nrrd ]]; then
  "$program" --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd \
    --compression none --csv /dev/null --quiet || exit 1
fi
run() {
  echo "== CudaLabelStatistics in.nrrd $*"
  local begin end
  begin=$(date +%s%N)
  "$program" in.nrrd "$@" > summary.txt
  end=$(date +%s%N)
  grep -E '^(backend|components|time|analysis|cuda|write):' summary.txt
  # What the caller waits for: the program's total, then its exit.
  echo "process:     $(((end - begin) / 1000000)) ms from its start to its exit"
  du -bc labels.* 2>/dev/null | tail -1 | sed 's/total/bytes of the label image/'
  rm -f labels.* components.csv summary.txt
}
if [[ $mode == compression ]]; then
  for c in auto none fast small; do
    run --labels labels.nrrd --csv components.csv --compression "$c"
  done
  run --labels labels.tif --csv components.csv --compression fast # strips deflated on every core
  run --csv components.csv
else
  for f in nrrd nhdr mha mhd tif; do
    for c in none fast small; do
      run --labels "labels.$f" --compression "$c"
    done
  done
  for f in nii nii.gz hdr vtk; do # one compression each, whatever is asked
    run --labels "labels.$f"
  done
fi
