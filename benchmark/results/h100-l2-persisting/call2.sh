#!/usr/bin/env bash
# Call 2 (the same warm machine and binary as call 1): smaller set-asides,
# 512^3 26-conn. g = 1, full table, the window to the run's end (SCOPE 2);
# MB=0 sets none. Run as one command line; its output is call2/summary.txt.
B=/tmp/b/x/cca_benchmark; ls $B >/dev/null 2>&1 || (mkdir -p /tmp/b && xz -dc .devcarry/gab1.tar.xz | tar -C /tmp/b -xf -); for mb in 0 4 16; do echo "MB=$mb"; CCA_L2_PERSIST_MB=$mb CCA_L2_PERSIST_SCOPE=2 timeout 40 $B --labels-on-device --no-atomic-counts --outputs all --dimension 3 --size 512 --g 1 --connectivity full --warmup 1 --reps 3 2>&1 | grep -E "L2|==|0\.00 |0\.30 "; done
