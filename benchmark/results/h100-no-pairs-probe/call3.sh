#!/usr/bin/env bash
# Call 3: the Python package built on the device with its CUDA backend
# (sm_90) and its tests, GPU ones and the others (no itk or SimpleITK
# there); as benchmark/results/h200-python-gpu-tests/call1.sh.
bash benchmark/results/h200-python-gpu-tests/call1.sh
