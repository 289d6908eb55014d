#!/usr/bin/env bash
# Call 5: start-up with the module built three ways (exitprobe.cpp, mode
# phased): as main builds it (-lineinfo, sm_90 ELF and compute_90 PTX),
# without -lineinfo, and without the PTX; lazy and eager loading; fresh
# processes interleaved, four rounds.
set -uo pipefail
mkdir -p $OUT/call5 && exec > >(tee $OUT/call5/log.txt) 2>&1
nvidia-smi -L
for round in 1 2 3 4; do
  for probe in exitprobe exitprobe-nolineinfo exitprobe-noptx; do
    for loading in LAZY EAGER; do
      echo "== $probe $loading: $(CUDA_MODULE_LOADING=$loading .devcarry/$probe phased | grep -v '^stamp' | tr '\n' ';')"
    done
  done
done
echo done
