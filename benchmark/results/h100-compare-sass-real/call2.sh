#!/usr/bin/env bash
# compare-sass.sh after its fix (anonymous namespaces' hashes dropped) on the
# same three objects as call 1; the dumps come back xz-compressed.
set -u
mkdir -p /tmp/s && tar -C /tmp/s -xJf .devcarry/sassv.tar.xz
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for pair in "base base" "base extra" "extra base" "base ptxas-O1"; do
    set -- $pair
    echo "== compare-sass.sh $1.o $2.o"
    bash scripts/compare-sass.sh /tmp/s/$1.o /tmp/s/$2.o 8
    echo "exit $?"
  done
} > $OUT/summary.txt 2>&1
for f in base extra; do cuobjdump -sass /tmp/s/$f.o | xz -T8 -6 > $OUT/$f.sass.xz; done
cat $OUT/summary.txt
