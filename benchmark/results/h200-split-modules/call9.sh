#!/usr/bin/env bash
# Call 9 (in the same command as call 8): the Python package's GPU tests
# (CuPy, PyTorch; pytest -m gpu) on main 8b51802, from a wheel built on the
# development machine for CPython 3.12 and sm_90 (.devcarry/*.whl), since
# building it there beside call 7's tests outlasted that call (the build
# alone takes about 284 s there, ../h200-python-gpu-tests).
set -uo pipefail
mkdir -p $OUT/call9 && exec > >(tee $OUT/call9/log.txt) 2>&1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .devcarry/*.whl || exit 1
root=$PWD
SECONDS=0
cd /tmp && PYTHONPATH=/tmp/site timeout 150 python3 -m pytest -q -m gpu -rs -p no:cacheprovider "$root/python/tests" > $OUT/call9/python-gpu.log 2>&1
echo "python GPU tests rc=$? in $SECONDS s"
tail -15 $OUT/call9/python-gpu.log
