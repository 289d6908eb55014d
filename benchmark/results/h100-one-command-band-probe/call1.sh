#!/usr/bin/env bash
# Call 1: scripts/gpu-machine-check.sh on main (de97d0a): ITK's GPU ctest
# with the CUDA backend, compute-sanitizer memcheck and racecheck on the
# engine's GPU tests and the feature groups, the program on its default
# input. Carry: .devcarry/itk-bundle.tar.xz (scripts/make-gpu-bundle.sh
# build-gpu).
BUILD=build-gpu bash scripts/gpu-machine-check.sh 2>&1 | tail -40
