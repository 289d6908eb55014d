#!/usr/bin/env bash
# Call 3 (H200): issue 10's table on the queued downloads (86d4939):
# STEPS="e2e e2e-program e2e-large" of benchmark/run-on-gpu-machine.sh from
# the slim bundle of build-gpu (ITK's filter on 16 threads beside ours, every
# object checked; the program through its files; the 2.35 Gvox volume).
set -u
BUILD=build-gpu STEPS="e2e e2e-program e2e-large" bash benchmark/run-on-gpu-machine.sh 500
