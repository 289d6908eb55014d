#!/usr/bin/env bash
# Call 3 (H200): issue 10's table end to end with the committed code
# (606e237), from the slim bench bundle (benchmark/make-bench-bundle.sh
# --slim build-bench; ITK 5.2.1's libraries travel with it): Update() of a
# fresh filter per mask against ITK's BinaryImageToShapeLabelMapFilter on
# 16 threads, the program through its files, and the 2048 x 2048 x 560
# volume with its label image against our CPU backend.
BUILD=build-bench STEPS="e2e e2e-program e2e-large" benchmark/run-on-gpu-machine.sh 470
