#!/usr/bin/env bash
# Call 3: the program's own .nii.gz writer (app/NiftiGzWriter.cpp, since the
# eighty-fifth session) on the H200, the final build of call 2: the 512^3
# g = 4 mask's label image as .nii.gz under each --compression, three
# rounds; the file inflated by Python's gzip (checksums checked) to the
# same bytes in every run.
set -uo pipefail
mkdir -p $OUT/call3 && exec > >(tee $OUT/call3/log.txt) 2>&1
nvidia-smi -L; nproc
B=/tmp/b && if [[ ! -x $B/cls-final ]]; then mkdir -p $B && tar -C $B -xJf .devcarry/split.tar.xz; fi
export LD_LIBRARY_PATH=$B/lib
W=/tmp/cca-program-files && mkdir -p $W && cd $W
[[ -f in.nrrd ]] || $B/cls-final --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd --compression none --csv /dev/null --quiet
for round in 1 2 3; do
  for c in auto fast small none; do
    echo "== .nii.gz --compression $c"
    b=$(date +%s%N)
    $B/cls-final in.nrrd --labels labels.nii.gz --compression $c > summary.txt; rc=$?
    e=$(date +%s%N)
    grep -E '^(time|write):' summary.txt
    echo "process: $(((e-b)/1000000)) ms, exit status $rc, $(stat -c %s labels.nii.gz) bytes"
    python3 -c "import gzip,hashlib,sys; print('inflated', hashlib.md5(gzip.open('labels.nii.gz').read()).hexdigest())"
    rm -f labels.nii.gz summary.txt
  done
done
echo done
