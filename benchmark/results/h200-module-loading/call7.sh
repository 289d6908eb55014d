#!/usr/bin/env bash
# Call 7: the module without line tables, its fatbinary compressed by nvcc's
# default mode (nl), not at all (nc) or for speed (ns, --compress-mode=speed);
# the probe's phased mode, fresh processes interleaved, six rounds.
set -uo pipefail
mkdir -p $OUT/call7 && exec > >(tee $OUT/call7/log.txt) 2>&1
nvidia-smi -L
B=/tmp/b7 && mkdir -p $B && tar -C $B -xJf .devcarry/b7.tar.xz
for round in 1 2 3 4 5 6; do
  for probe in exitprobe-nl exitprobe-nc exitprobe-ns; do
    echo "== $probe: $($B/$probe phased | grep -v '^stamp' | tr '\n' ';')"
  done
done
echo done
