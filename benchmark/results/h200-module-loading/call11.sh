#!/usr/bin/env bash
# Call 11: HostSequence's Run split into UsesWideIndex and RunWithIndex (the
# emulation library compiles the two index widths in two files): the quick
# GPU tests on that build (backend test, memcheck, racecheck one case a check).
set -u
mkdir -p $OUT/call11 && exec > >(tee $OUT/call11/log.txt) 2>&1
nvidia-smi -L
B=/tmp/b11 && mkdir -p $B && tar -C $B -xJf .devcarry/b11.tar.xz
bash scripts/engine-gpu-tests.sh --quick $B/build-gpu $OUT/call11/tests
echo "done at $SECONDS s"
