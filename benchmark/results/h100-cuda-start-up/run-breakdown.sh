#!/usr/bin/env bash
# Session 22: where CUDA start-up goes (fresh processes)
L=$OUT/logs; mkdir -p $L
nvidia-smi -L > $L/device.txt; nvidia-smi -q | grep -i "persistence\|Driver Version\|CUDA Version" >> $L/device.txt
P=.devcarry/sp/startprobe; chmod +x $P
for i in 1 2 3; do $P raw >> $L/start.log 2>&1; $P engine >> $L/start.log 2>&1; done
for i in 1 2; do CUDA_MODULE_LOADING=EAGER $P engine | sed 's/^/EAGER /' >> $L/start.log 2>&1; done
for i in 1 2; do CUDA_DEVICE_MAX_CONNECTIONS=2 $P engine | sed 's/^/MAXCONN2 /' >> $L/start.log 2>&1; done
cp $L/* $OUT/
