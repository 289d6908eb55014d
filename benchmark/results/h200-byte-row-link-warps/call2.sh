#!/usr/bin/env bash
# Call 2 (H200): the byte rows' union-find (LinkByteRowsKernel) with more
# warps in flight: rows of the pass over all runs cut into parts (a warp
# each) and the kernel held to fewer registers (launch bounds of 5, 6, 8
# blocks a multiprocessor). One experimental binary, the setting from the
# environment (CCA_EXP_PARTS, CCA_EXP_MINBLOCKS); labels only at g = 1.
set -u
O=$OUT/c2; L=$O/logs; mkdir -p $L /tmp/b
xz -dc .devcarry/bench-x.xz > /tmp/b/X && chmod +x /tmp/b/X
exec > >(tee $O/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
cuobjdump --dump-resource-usage /tmp/b/X 2>&1 | grep -A1 LinkByteRows | paste - - | sed -E 's/.*Function ([^ :]*).*REG:([0-9]+) STACK:([0-9]+).*LOCAL:([0-9]+).*/\1 REG \2 STACK \3 LOCAL \4/' | c++filt | sed 's/(.*)//' > $O/registers.txt
cat $O/registers.txt
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1"
for cfg in 0:1 0:2 0:4 5:2 6:2 6:4 8:2 8:4 0:1; do
  b=${cfg%:*}; p=${cfg#*:}
  for c in "2 8192 full" "2 8192 face" "3 512 full"; do
    set -- $c; n=$1d-$3-b$b-p$p
    CCA_EXP_MINBLOCKS=$b CCA_EXP_PARTS=$p timeout 45 /tmp/b/X $P --connectivity $3 --dimension $1 --size $2 > $L/$n.log 2>&1
    echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
