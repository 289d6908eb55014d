#!/usr/bin/env bash
# Call 10: issue 10's table on main c4946e6 (kernels without line tables,
# the early writeback): cca_e2e_benchmark against ITK 5.2.1 on 16 threads,
# the program through its files, the 2.35 Gvox volume.
set -u
mkdir -p $OUT/call10
OUT=$OUT/call10/table BUILD=build-gpu STEPS="e2e e2e-program e2e-large" bash benchmark/run-on-gpu-machine.sh 380 > $OUT/call10/run.log 2>&1
echo "rc=$?"
tail -5 $OUT/call10/run.log
