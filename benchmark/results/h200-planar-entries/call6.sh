#!/usr/bin/env bash
# Call 6 (H200): where the votes' DRAM writes come from. ncu's whole-kernel
# counts (call 2, h200-vote-occupancy call 3) show the votes writing about
# twice the bytes of the entries, grouped runs and offsets they store; here
# their stores, atomics and local memory by unit, on 8192^2 4-conn. g = 1
# d = 0.5 (planar entries) and 512^3 6-conn. g = 1 d = 0.3, one run each.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum
M=$M,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum
M=$M,lts__t_sectors_srcunit_tex_op_atom.sum,lts__t_sectors_srcunit_tex_op_red.sum
M=$M,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
for c in "2 8192 face 0.5" "3 512 face 0.3"; do
  set -- $c
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension $1 --size $2 --connectivity $3 --density $4 --warmup 0 --reps 1"
  echo "== $1d-$3-d$4"
  timeout 120 ncu --clock-control none --print-units base -k regex:AccumulateFeatures --metrics $M $B $Q 2>&1 |
    grep -E "AccumulateFeatures|__|gpu__" | sed 's/^ *//' | head -40
done
