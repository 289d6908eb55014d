#!/usr/bin/env bash
# The program's release of the analysis's objects beside the outputs' flush
# (app/main.cpp BackgroundRelease), development machine (2 cores, no GPU,
# CPU backend): A = the program of commit 237ccbc, B = with the change; the
# 512^3 g = 4 mask of benchmark/program-files.sh (labels as uncompressed
# NRRD + CSV), A and B alternated five times, the program's time line and
# the wall time to the process's exit (/usr/bin/time).
# Usage: run.sh PROGRAM_A PROGRAM_B WORKDIR
set -u
A=$1 B=$2 W=$3
mkdir -p "$W" && cd "$W" || exit 1
[ -f in.nrrd ] || "$A" --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd \
  --compression none --csv /dev/null --quiet
for i in 1 2 3 4 5; do
  for v in A B; do
    p=$A; [ $v = B ] && p=$B
    /usr/bin/time -f "wall %e s" "$p" in.nrrd --labels labels.nrrd --csv components.csv --compression none 2>&1 |
      grep -E '^(time|wall)' | tr '\n' ' ' | sed "s/^/$v: /"
    echo
    rm -f labels.nrrd components.csv
  done
done
