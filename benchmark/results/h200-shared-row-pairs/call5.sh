#!/usr/bin/env bash
# Call 5 (H200): the GPU tests, memcheck and racecheck on call 4's binary x
# (the queued merges the default; the shared row-block suite takes them on
# and off), run as one command line:
mkdir -p /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz && bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests > $OUT/summary.txt 2>&1; grep -E "shared row-block" $OUT/tests/backend.log >> $OUT/summary.txt; cat $OUT/summary.txt; cd $OUT && tar -czf logs.tgz tests && rm -rf tests
