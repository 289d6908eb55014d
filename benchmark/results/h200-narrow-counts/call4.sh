#!/usr/bin/env bash
# Call 4 (H200 host, no GPU work): what the table's download costs the host
# (host-widening.cpp, built with g++ -O2 here, carried): 16 threads each
# writing its own contiguous region of an 8.6 M-entry table (1.86 GB) from
# a reused 2 MiB staging buffer, into fresh memory (huge-page advice) and
# into memory written before: memcpy of wide entries (main), widening of
# narrow entries, the same with non-temporal stores, and widened in blocks
# of 256 entries then copied.
set -u
exec > >(tee $OUT/summary.txt) 2>&1
nproc; lscpu | grep -E 'Model name|^CPU\(s\)|Thread|NUMA node\(s\)'
cat /sys/kernel/mm/transparent_hugepage/enabled
.devcarry/wb/wb
