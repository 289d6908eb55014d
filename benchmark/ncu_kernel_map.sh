#!/usr/bin/env bash
# Where one image's time goes, kernel by kernel, on the lent GPU machine:
# ncu of every kernel of one cca_benchmark run (one repetition, no
# warm-up: each kernel launches twice, see ncu_kernel_table.py) with time,
# DRAM bytes, warps active and instructions, the CSV kept as
# LOGS/NAME.csv, then benchmark/ncu_kernel_table.py's table of the TOP
# largest kernels. The arguments after NAME go to cca_benchmark, which
# is also given --labels-on-device --no-atomic-counts --warmup 0 --reps 1.
# Usage:
#   TOP=16 bash benchmark/ncu_kernel_map.sh BENCHMARK LOGS NAME ARGS...
set -u
B=$1
L=$2
NAME=$3
shift 3
mkdir -p "$L"
echo "== ncu every kernel, $NAME: $*"
timeout 60 ncu --clock-control none --print-units base --csv \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
  "$B" --labels-on-device --no-atomic-counts --warmup 0 --reps 1 "$@" > "$L/$NAME.csv" 2> "$L/$NAME.err"
echo "ncu rc=$? at $SECONDS s"
python3 "$(dirname "$0")/ncu_kernel_table.py" "$L/$NAME.csv" --top "${TOP:-16}"
