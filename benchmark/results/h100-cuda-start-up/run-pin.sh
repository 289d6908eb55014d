#!/usr/bin/env bash
# Session 22: pinned staging at start-up, cudaHostAlloc against registered memory of our own (fresh processes)
L=$OUT/logs; mkdir -p $L
P=.devcarry/sp/pinprobe2; chmod +x $P
for i in 1 2 3; do for m in alloc register register-one register-untouched; do $P $m >> $L/pin.log 2>&1; done; done
cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag >> $L/pin.log
cp $L/* $OUT/
