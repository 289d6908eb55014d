#!/usr/bin/env bash
# Call 5 (H200): the NPP benchmark built against this session's engine
# (NPP is only on the GPU machine) and run once (--quick), its --g refusal;
# and N's all-foreground images again, three rounds of 11 repetitions.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
N=/tmp/b/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
xz -dc .devcarry/engine.a.xz > /tmp/b/engine.a
g++ -O3 -DNDEBUG -Wall -Wextra -Wshadow -std=c++17 -DCCA_HAVE_CUDA=1 -I cuda -I include -isystem /usr/local/cuda/include benchmark/ccaNppBenchmark.cxx /tmp/b/engine.a \
  -L/usr/local/cuda/lib64 -lnppif -lnppisu -lnppc -lcudart_static -lcudadevrt -ldl -lrt -lpthread -o /tmp/b/npp > $L/npp-build.log 2>&1
echo "npp build rc=$? at $SECONDS s"; tail -5 $L/npp-build.log
timeout 150 /tmp/b/npp --quick > $L/npp-quick.log 2>&1; echo "npp --quick rc=$? at $SECONDS s"; tail -12 $L/npp-quick.log
timeout 20 /tmp/b/npp --g 64 > $L/npp-g64.log 2>&1; echo "npp --g 64 rc=$? (a refusal expected)"; tail -2 $L/npp-g64.log
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
P="--reps 11 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --connectivity both --g 0"
for r in 1 2 3; do
  for d in "2 8192" "3 512"; do
    set -- $d
    timeout 30 $N/benchmark/cca_benchmark $P --dimension $1 --size $2 > $L/all-${1}d-g0-N$r.log 2>&1; echo "all ${1}D g0 N$r rc=$? at $SECONDS s: $(s $L/all-${1}d-g0-N$r.log)"
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
