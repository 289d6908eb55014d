#!/usr/bin/env bash
# Call 4 (the same warm machine as calls 2 and 3, whose /tmp/b and input it
# reuses): the program's CUDA start-up with and without the CSV and with a
# .nii.gz, final and main alternated three times; call 3's waits for CUDA
# had been longer than call 2's.
B=/tmp/b; export LD_LIBRARY_PATH=$B/lib; cd /tmp/cca-program-files; for r in 1 2 3; do for v in final main; do for o in "--labels labels.nrrd --csv components.csv" "--labels labels.nii.gz" "--labels labels.nrrd"; do echo "== $v $o"; $B/cls-$v in.nrrd $o > s.txt; grep -E "^(cuda|time):" s.txt | cut -c1-200; rm -f labels.* components.csv; done; done; done
