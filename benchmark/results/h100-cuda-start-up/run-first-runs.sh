#!/usr/bin/env bash
# Session 22: which outputs make a small run's download stage long
L=$OUT/logs; mkdir -p $L
P=.devcarry/sp/dlprobe; chmod +x $P
$P 512 > $L/dl.log 2>&1; $P 2048 >> $L/dl.log 2>&1
cp $L/dl.log $OUT/
