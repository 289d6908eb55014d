#!/usr/bin/env bash
# Call 1 (H100): one warp inclusive scan (WarpInclusiveSum,
# cuda/DeviceGeometry.cuh) for the three kernels' copies (the roots' ranks,
# the queued merges, the run detection's pair scan). m = main 9132530's
# cca_benchmark, n = the change: their SASS compared function by function;
# then n's whole engine GPU suite (scripts/engine-gpu-tests.sh).
# Carry: .devcarry/t5.tar.xz (m/cca_benchmark; build-gpu/: cca_benchmark and
# the engine's GPU tests, stripped).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/t5.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
sass() { # one function a block, addresses and encodings dropped
  cuobjdump -sass "$1" | sed -E 's#/\*[0-9a-f]{4,}\*/##; s#/\* 0x[0-9a-f]+ \*/##; s/[[:space:]]+$//' | grep -v '^[[:space:]]*$'
}
sass /tmp/b/m/cca_benchmark > $L/m.sass; sass /tmp/b/build-gpu/benchmark/cca_benchmark > $L/n.sass
echo "SASS lines m $(wc -l < $L/m.sass), n $(wc -l < $L/n.sass)"
python3 - $L/m.sass $L/n.sass <<'PY'
import re, sys
def funcs(path):
    out, name = {}, None
    for line in open(path):
        m = re.match(r'\s*Function : (\S+)', line)
        if m:
            name = m.group(1); out[name] = []
        elif name:
            out[name].append(line.strip())
    return out
a, b = funcs(sys.argv[1]), funcs(sys.argv[2])
print(f"functions m {len(a)}, n {len(b)}; only in m {len(set(a) - set(b))}, only in n {len(set(b) - set(a))}")
diff = [k for k in a if k in b and a[k] != b[k]]
print(f"functions whose SASS differs: {len(diff)}")
for k in diff[:40]:
    print(f"  {k[:110]}  ({len(a[k])} -> {len(b[k])} lines)")
PY
bash scripts/engine-gpu-tests.sh /tmp/b/build-gpu $L
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
