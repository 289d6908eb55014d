#!/usr/bin/env bash
# Session 22: does growing the device pool at start-up shorten the first runs? (fresh processes)
L=$OUT/logs; mkdir -p $L
P=.devcarry/sp/startprobe2; chmod +x $P
for i in 1 2 3; do
  $P engine >> $L/grow.log 2>&1; $P engine 256 >> $L/grow.log 2>&1; $P engine 1024 >> $L/grow.log 2>&1
  CT=1 $P engine | sed 's/^/CT /' >> $L/grow.log 2>&1; CT=1 $P engine 256 | sed 's/^/CT /' >> $L/grow.log 2>&1; CT=1 $P engine 1024 | sed 's/^/CT /' >> $L/grow.log 2>&1
done
cp $L/grow.log $OUT/
