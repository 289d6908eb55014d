#!/usr/bin/env bash
# Call 3 (H100): call 2 had n 1.2 % behind m on the 512^3 6-conn. g = 16
# set, whose images all have more than 32,768 runs and so take the
# unchanged path. Again with the order alternating (m n m n n m n m), the
# 8192^2 4-conn. g = 16 set beside it; and the SASS of the flagging and
# numbering kernels of both binaries compared.
# Carry: .devcarry/t2.tar.xz (as call 2).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/t2.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b
AB="python3 benchmark/ab_compare.py --variant m=$R/m/cca_benchmark --variant n=$R/n/cca_benchmark"
C="--labels-on-device --no-atomic-counts --outputs all"
timeout 240 $AB --per-image --logs $L/g16 --common "$C --warmup 1 --reps 5" \
  --set 3d6-g16="--dimension 3 --size 512 --connectivity face --g 16" \
  --set 2d4-g16="--dimension 2 --size 8192 --connectivity face --g 16" --order "m n m n n m n m" > $L/g16.txt 2>&1
echo "g16 rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/g16.txt | head -60
for v in m n; do
  cuobjdump -sass $R/$v/cca_benchmark > $L/sass-$v.txt 2>&1
  awk '/Function : /{f=$3} f ~ /FlagRootsKernel|NumberComponentsKernel/ {print > "'$L'/k-'$v'-" substr(f,1,60) ".sass"}' $L/sass-$v.txt
done
for f in $L/k-m-*.sass; do
  g=${f/k-m-/k-n-}
  a=$(grep -cE "^\s+/\*[0-9a-f]{4}\*/" $f); b=$(grep -cE "^\s+/\*[0-9a-f]{4}\*/" $g 2>/dev/null)
  d=$(diff <(sed 's/\/\*[0-9a-f]*\*\///; s/;.*//' $f) <(sed 's/\/\*[0-9a-f]*\*\///; s/;.*//' $g 2>/dev/null) | grep -c "^[<>]")
  echo "$(basename $f) m $a n $b differing lines $d"
done
rm -f $L/sass-*.txt
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
