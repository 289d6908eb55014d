#!/usr/bin/env bash
# Call 2 (H200): the union-find initialisation in 16-byte stores (N)
# against the binary before it (B), labels only at g = 1, N B N B; then,
# with N, the runs joined from the rows' bits always against never, labels
# only and the full table, g = 1, per density. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; xz -dc .devcarry/before/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
nvidia-smi -L > $L/device.txt
timeout 90 $B/test/gpu/ccaCudaBackendTest --quick > $L/backend-quick.log 2>&1; echo "backend quick rc=$? at $SECONDS s"; grep -E "^total|FAIL|row-bit" $L/backend-quick.log | head -10
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$B/benchmark/cca_benchmark $P --outputs labels --dimension 2 --size 8192 --g 4 > /dev/null 2>&1 # warm-up
for v in N1 B1 N2 B2; do
  X=$B/benchmark/cca_benchmark; [[ $v == B* ]] && X=/tmp/b/before
  timeout 40 $X $P --outputs labels --dimension 2 --size 8192 --g 1 --connectivity both --json $L/k2-$v.json > $L/k2-$v.log 2>&1
  echo "2D g1 labels $v rc=$? at $SECONDS s: $(s $L/k2-$v.log)"
  timeout 40 $X $P --outputs labels --dimension 3 --size 512 --g 1 --connectivity face --json $L/k3-$v.json > $L/k3-$v.log 2>&1
  echo "3D6 g1 labels $v rc=$? at $SECONDS s: $(s $L/k3-$v.log)"
done
N=$B/benchmark/cca_benchmark
for r in always never; do
  timeout 40 $N $P --row-bit-links $r --outputs labels --dimension 3 --size 512 --g 1 --connectivity face --json $L/rb-k3-labels-$r.json > $L/rb-k3-labels-$r.log 2>&1
  echo "rowbits $r 3D6 labels rc=$? at $SECONDS s: $(s $L/rb-k3-labels-$r.log)"
  timeout 30 $N $P --row-bit-links $r --outputs labels --dimension 2 --size 8192 --g 1 --connectivity face --json $L/rb-k2-labels-$r.json > $L/rb-k2-labels-$r.log 2>&1
  echo "rowbits $r 2D4 labels rc=$? at $SECONDS s: $(s $L/rb-k2-labels-$r.log)"
  timeout 40 $N $P --row-bit-links $r --outputs all --dimension 2 --size 8192 --g 1 --connectivity both --json $L/rb-k2-all-$r.json > $L/rb-k2-all-$r.log 2>&1
  echo "rowbits $r 2D all rc=$? at $SECONDS s: $(s $L/rb-k2-all-$r.log)"
  timeout 60 $N $P --row-bit-links $r --outputs all --dimension 3 --size 512 --g 1 --connectivity face --json $L/rb-k3-all-$r.json > $L/rb-k3-all-$r.log 2>&1
  echo "rowbits $r 3D6 all rc=$? at $SECONDS s: $(s $L/rb-k3-all-$r.log)"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
