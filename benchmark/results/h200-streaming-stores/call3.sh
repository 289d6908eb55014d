#!/usr/bin/env bash
# Call 3 (H200): the program's label image memory made ready while CUDA
# starts (HostImageMemory::Prepare; n) against the program before it (b):
# one process per run, the 512^3 g = 4 mask of program-files.sh (labels as
# uncompressed NRRD with and without the CSV) and an 8192^2 g = 4 mask,
# b n n b, four rounds. The outputs of b and n compared byte for byte.
set -u
mkdir -p /tmp/pb $OUT/logs && xz -dc .devcarry/prog.tar.xz | tar -C /tmp/pb -xf -
export LD_LIBRARY_PATH=/tmp/pb/lib
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores"; grep -E "^(AnonHugePages|Hugepagesize)" /proc/meminfo; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag
W=/tmp/w && mkdir -p $W && cd $W
/tmp/pb/n/CudaLabelStatistics --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in3.nrrd --compression none --csv /dev/null --quiet
/tmp/pb/n/CudaLabelStatistics --defaultSize 8192x8192 --density 0.5 --granularity 4 --seed 3 --saveInput in2.nrrd --compression none --csv /dev/null --quiet
for r in 1 2 3 4; do
  for v in b n n b; do
    for case in "in3.nrrd --labels labels.nrrd --csv components.csv" "in3.nrrd --labels labels.nrrd" "in2.nrrd --labels labels.nrrd --csv components.csv"; do
      echo "== $r $v $case"
      /tmp/pb/$v/CudaLabelStatistics $case --compression none | grep -E '^(time|analysis|cuda):'
      if [[ $r == 1 ]]; then mkdir -p out-$v && cp labels.nrrd out-$v/labels-$(echo $case | cut -c3).nrrd; [[ -f components.csv ]] && cp components.csv out-$v/c-$(echo $case | cut -c3).csv; fi
      rm -f labels.nrrd components.csv
    done
  done
done
for f in out-b/*; do cmp $f out-n/$(basename $f) && echo "same: $(basename $f)"; done
