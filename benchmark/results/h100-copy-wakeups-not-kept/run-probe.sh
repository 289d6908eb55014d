#!/usr/bin/env bash
# Session 22, call 3: the copy workers' wake-up and completion latency, condition variable (engine) against spinning workers
L=$OUT/logs; mkdir -p $L
nvidia-smi -L > $L/device.txt; nproc >> $L/device.txt; lscpu | grep -i "model name\|^CPU(s)\|Thread" >> $L/device.txt
for v in cv spin0 spin200 spin1000 cv; do timeout 100 .devcarry/wp/wakeprobe $v >> $L/wake.log 2>&1; done
cp $L/wake.log $L/device.txt $OUT/
