#!/usr/bin/env bash
# Call 1 (H200): the A/B prepared last session (h200-byte-row-link-warps/
# label-image-parts-pending.patch), B = main (84b058d) against P = main with
# the patch, one binary each, both in .devcarry/gpu.tar.xz (build-gpu/ and
# p/). Labels only at g = 1: 8192^2 8- and 4-connected under every setting,
# 512^3 26-connected under B and two settings; then ncu's warp stall
# reasons of the strip kernels at 8192^2 d = 0.3, where ours trails BKE.
# Settings "parts bound store runlabels": CCA_EXP_LABEL_PARTS,
# CCA_EXP_LABEL_BLOCKS, CCA_EXP_OFFER_STORE, CCA_EXP_RUN_LABELS.
set -u
O=$OUT/c1; L=$O/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu/benchmark/cca_benchmark; Q=/tmp/b/p/cca_benchmark
exec > >(tee $O/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1"
run() { local bin=$1 tag=$2 fams=$3; for c in $fams; do local d=${c%%:*} rest=${c#*:}; local n=${d}d-${rest#*:}-$tag
  timeout 45 $bin $P --connectivity ${rest#*:} --dimension $d --size ${rest%%:*} > $L/$n.log 2>&1; echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"; done; }
F2="2:8192:full 2:8192:face"; F3="3:512:full"
run $B B1 "$F2 $F3"
for cfg in "2 0 0 0" "1 8 0 0" "2 8 0 0" "2 6 0 0" "1 0 1 0" "1 0 0 1" "2 8 1 1" "1 0 0 0"; do
  set -- $cfg; fams=$F2; [[ $cfg == "2 0 0 0" || $cfg == "2 8 1 1" ]] && fams="$F2 $F3"
  CCA_EXP_LABEL_PARTS=$1 CCA_EXP_LABEL_BLOCKS=$2 CCA_EXP_OFFER_STORE=$3 CCA_EXP_RUN_LABELS=$4 run $Q P-$1-$2-$3-$4 "$fams"
done
run $B B2 "$F2 $F3"
M="--section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy"
timeout 90 ncu --clock-control none $M -k "regex:Offer|Mark|WriteStripLabelImage|LinkByteRows|WriteByteRuns" $B --labels-on-device --no-atomic-counts --reps 1 --warmup 1 --dimension 2 --size 8192 --g 1 --connectivity full --outputs labels --density 0.3 > $L/ncu-b-0.3.txt 2>&1; echo "ncu rc=$? at $SECONDS s"
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
