#!/usr/bin/env bash
# Call 1 (H100): the GPU tests of main 590570e, which no GPU had run: the
# engine's (scripts/engine-gpu-tests.sh: oracle and large images on CUDA,
# backend against CPU, feature groups on CUDA, device memory, memcheck,
# racecheck) and the Python package's (pytest -m gpu, from a CPython 3.12
# sm_90 wheel built on the development machine); then CUPTI timelines of
# the all-on plane and volume and of two g = 1 images (full table).
# Carry: .devcarry/t1.tar.xz (stripped build-gpu tests, cca_benchmark,
# libtimeline.so), .devcarry/*.whl.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/t1.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
bash scripts/engine-gpu-tests.sh /tmp/b/build-gpu $L
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .devcarry/*.whl || echo "wheel install failed"
root=$PWD
(cd /tmp && PYTHONPATH=/tmp/site timeout 150 python3 -m pytest -q -m gpu -rs -p no:cacheprovider "$root/python/tests" > $L/python-gpu.log 2>&1)
echo "python GPU tests rc=$? at $SECONDS s"; tail -8 $L/python-gpu.log
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/b/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --outputs all"
for c in "2 8192 face 1 --density=1" "3 512 face 1 --density=1" "2 8192 face 1 --density=0.5" "3 512 face 1 --density=0.3"; do
  set -- $c
  n=$1d-$3-${5#--density=}
  TIMELINE_OUT=$L/timeline-$n.tsv CUDA_INJECTION64_PATH=/tmp/b/libtimeline.so timeout 60 $B $C --dimension $1 --size $2 --connectivity $3 --g $4 ${5/=/ } --warmup 1 --reps 3 > $L/tl-$n.log 2>&1
  echo "== timeline $n rc=$? at $SECONDS s"
  python3 benchmark/results/h100-all-on-stages/timeline_kernels.py $L/timeline-$n.tsv | tail -40
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
