#!/usr/bin/env bash
# Call 3 (H200): B (4dc7e6f) against X (the pass over all runs in
# ByteRowLinkParts = 2 parts a row, LinkByteRowsKernel held to 8 blocks a
# multiprocessor in planes and 6 in volumes, the parts' counting on the
# two rows alone), B X B X over labels only at g = 1 in the four
# families; X with 3 parts (planes) and 4 parts (volumes) from the
# environment override of this experimental binary.
set -u
O=$OUT/c3; L=$O/logs; mkdir -p $L /tmp/b
xz -dc .devcarry/bench-b.xz > /tmp/b/B && xz -dc .devcarry/bench-x.xz > /tmp/b/X && chmod +x /tmp/b/B /tmp/b/X
exec > >(tee $O/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
cuobjdump --dump-resource-usage /tmp/b/X 2>&1 | grep -A1 LinkByteRows | paste - - | sed -E 's/.*Function ([^ :]*).*REG:([0-9]+) STACK:([0-9]+).*LOCAL:([0-9]+).*/\1 REG \2 STACK \3 LOCAL \4/' | c++filt | sed 's/(.*)//' > $O/registers.txt
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1"
run() { local v=$1 tag=$2; shift 2; for c in "$@"; do set -- $c; n=$1d-$3-$tag
  timeout 45 /tmp/b/$v $P --connectivity $3 --dimension $1 --size $2 > $L/$n.log 2>&1; echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"; done; }
ALL=("2 8192 full" "2 8192 face" "3 512 full" "3 512 face")
run B B1 "${ALL[@]}"; run X X1 "${ALL[@]}"
CCA_EXP_PARTS=3 run X X1-p3 "2 8192 full" "2 8192 face"
CCA_EXP_PARTS=4 run X X1-p4 "3 512 full" "3 512 face"
run B B2 "${ALL[@]}"; run X X2 "${ALL[@]}"
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
