#!/usr/bin/env bash
# The development VM (2 cores): the probe at 1 GB on 2 threads, each mode
# after 8 s idle and at once after the run before.
P=/tmp/fwp  # g++ -O2 -std=c++17 -pthread fresh-widening-probe.cpp -o /tmp/fwp
nproc; uname -r
for f in /sys/bus/virtio/drivers/virtio_balloon/virtio*/features; do [ -e "$f" ] && echo "balloon features: $(cat $f)"; done
for mode in widen-stream widen-plain touch-stream prefault-stream; do
  sleep 8; echo "-- idle 8 s"; "$P" $mode 1 2
  echo "-- at once"; "$P" $mode 1 2
  echo "-- at once"; "$P" $mode 1 2
done
