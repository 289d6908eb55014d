#!/usr/bin/env bash
# Pending (not run): the next session's A/B of label-image-parts-pending.patch
# (applied to d4157d6 and built into .devcarry/bench-p.xz; B, d4157d6
# itself, in .devcarry/bench-b.xz). The patch cuts the label image's rows
# into parts, a warp each (CCA_EXP_LABEL_PARTS: the strips' and, in planes,
# the byte rows'), bounds the strip label image kernel (CCA_EXP_LABEL_BLOCKS
# 6 or 8; unbounded it takes 64 registers), and lets roots whose first
# pixel is in their strip's first row store it instead of offering it
# (CCA_EXP_OFFER_STORE=1), and writes each strip run's label in place of
# its parent before the label image (CCA_EXP_RUN_LABELS=1: one load a run
# there instead of parent, first pixel key and bitmap rank in turn). The
# patch's emulation passed with every setting.
# Labels only at g = 1, then ncu's warp stall reasons of the strip
# kernels at 8192^2 d = 0.3, where ours trails BKE.
set -u
O=$OUT/next; L=$O/logs; mkdir -p $L /tmp/b
for v in b p; do xz -dc .devcarry/bench-$v.xz > /tmp/b/$v && chmod +x /tmp/b/$v; done
exec > >(tee $O/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1"
run() { local v=$1 tag=$2; shift 2; for c in "2 8192 full" "2 8192 face" "3 512 full"; do set -- $c; n=$1d-$3-$tag
  timeout 45 /tmp/b/$v $P --connectivity $3 --dimension $1 --size $2 > $L/$n.log 2>&1; echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"; done; }
run b B1
for cfg in "1 0 0 0" "2 0 0 0" "2 8 0 0" "2 6 0 0" "1 8 0 0" "1 0 1 0" "1 0 0 1" "2 8 1 1"; do
  set -- $cfg
  CCA_EXP_LABEL_PARTS=$1 CCA_EXP_LABEL_BLOCKS=$2 CCA_EXP_OFFER_STORE=$3 CCA_EXP_RUN_LABELS=$4 run p P-$1-$2-$3-$4
done
run b B2
M="--section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy"
timeout 90 ncu --clock-control none $M -k "regex:Offer|Mark|WriteStripLabelImage|LinkByteRows" /tmp/b/b --labels-on-device --no-atomic-counts --reps 1 --warmup 1 --dimension 2 --size 8192 --g 1 --connectivity full --outputs labels --density 0.3 > $L/ncu-b-0.3.txt 2>&1; echo "ncu rc=$? at $SECONDS s"
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
