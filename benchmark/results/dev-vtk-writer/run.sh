#!/usr/bin/env bash
# The program's .vtk label image: ITK's VTKImageIO (OLD: main 6e57538's
# program) against the program's own writer (NEW: app/VtkWriter.cpp), on
# the 2-core development machine, the CPU backend, 512^3 g = 4 (the mask of
# benchmark/program-files.sh), in tmpfs (/dev/shm: this machine's disk
# times vary by five), with a raw NRRD of the same bytes beside each run.
# Usage: run.sh OLD_PROGRAM NEW_PROGRAM
set -u
OLD=$1 NEW=$2
mkdir -p /dev/shm/vt && cd /dev/shm/vt || exit 1
[[ -f in.nrrd ]] || "$NEW" --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd \
  --compression none --csv /dev/null --quiet --backend cpu
for r in 1 2 3; do
  for v in OLD NEW; do
    P=${!v}
    echo "$v $("$P" in.nrrd --backend cpu --labels $v.vtk | grep -E '^write:')  $("$P" in.nrrd --backend cpu --labels $v.nrrd --compression none | grep -E '^write:')"
  done
  cmp OLD.vtk NEW.vtk && echo "same bytes"
  rm -f OLD.vtk NEW.vtk OLD.nrrd NEW.nrrd
done
