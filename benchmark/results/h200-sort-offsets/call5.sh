#!/usr/bin/env bash
# Call 5 (H200): where the votes' DRAM reads come from. ncu of one votes
# launch (AccumulateFeaturesKernel) and one pairs launch at 512^3 6-conn.
# d = 0.3 and 8192^2 4-conn. d = 0.3, full table: global load requests
# against sectors (a gathered 16-byte record uses half a 32-byte sector),
# L2 sectors by operation, DRAM bytes, the warps' stalls and the source
# lines they stall on. Call 4's binary (the votes are main's; only where
# the label image is queued differed, which ncu's serialized launches do
# not see).
set -u
L=$OUT/ncu; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
M=$M,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum
M=$M,lts__t_sector_op_read_hit_rate.pct,lts__t_sector_op_write_hit_rate.pct
for c in "3 512 face 0.3" "2 8192 face 0.3"; do
  set -- $c
  n=${1}d-$3-d$4
  timeout 150 ncu --clock-control none --print-units base --kernel-name regex:"AccumulateFeaturesKernel|CountPrecedingPairsKernel" \
    --launch-count 2 --metrics $M --section WarpStateStats --section SourceCounters \
    $B $C --dimension $1 --size $2 --connectivity $3 --density $4 > $L/$n.txt 2> $L/$n.err
  echo "== $n (rc=$?, at $SECONDS s)"
  grep -E "^  [A-Za-z].*Kernel|dram__|l1tex__t_|lts__t_|gpu__time|Stall|stall|Warp Cycles|Issued" $L/$n.txt | head -80
done
tar -C $OUT -czf $OUT/ncu.tgz ncu && rm -rf $L
