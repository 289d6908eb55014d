#!/usr/bin/env bash
# Registers, spills, stack and shared memory of chosen kernels, as ptxas
# gives them for sm_90 with the engine's flags, in seconds: it compiles
# only the kernels that SOURCE instantiates (default
# scripts/kernel-resources/HotKernels.cu, by taking their addresses), not
# the backend's hundreds of kernels (minutes). For trying a kernel's
# register budget before building a benchmark. Needs nvcc only (no GPU).
# Usage:
#   scripts/kernel-resources.sh [SOURCE.cu ...]
# NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc) and ARCH
# (default 90) may be set in the environment. Prints one line a kernel:
#   registers  spill stores/loads  stack  shared  kernel
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
arch=${ARCH:-90}
[ $# -gt 0 ] || set -- "$root/scripts/kernel-resources/HotKernels.cu"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for source in "$@"; do
  if ! "$nvcc" -DCCA_HAVE_CUDA=1 -I"$root/include" -I"$root/src" -I"$root/cuda" -O3 -DNDEBUG -std=c++17 \
    --expt-relaxed-constexpr --generate-code=arch=compute_$arch,code=sm_$arch -Xptxas -v \
    -c "$source" -o "$work/kernels.o" > "$work/ptxas.txt" 2>&1; then
    cat "$work/ptxas.txt" >&2
    echo "kernel-resources: $source did not compile" >&2
    exit 1
  fi
  python3 - "$work/ptxas.txt" <<'PY'
import re, shutil, subprocess, sys

entries = []
for line in open(sys.argv[1]):
    m = re.search(r"Compiling entry function '([^']+)'", line)
    if m:
        entries.append({"name": m.group(1)})
        continue
    if not entries:
        continue
    e = entries[-1]
    m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
    if m:
        e["stack"], e["stores"], e["loads"] = m.groups()
    m = re.search(r"Used (\d+) registers", line)
    if m:
        e["registers"] = m.group(1)
        s = re.search(r"(\d+) bytes smem", line)
        e["smem"] = s.group(1) if s else "0"
names = [e["name"] for e in entries]
if shutil.which("c++filt"):
    names = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.splitlines()
print("%9s %15s %6s %7s  %s" % ("registers", "spills st/ld", "stack", "shared", "kernel"))
for e, n in zip(entries, names):
    n = re.sub(r"\((?:\w+::)*(\w+)\)(\d+)", r"\1:\2", n)  # enum arguments: (cca::cuda::VoteStores)1 -> VoteStores:1
    n = re.sub(r"\(.*", "", n).replace("cca::cuda::", "").replace("void ", "")
    print("%9s %15s %6s %7s  %s" % (e.get("registers", "?"), "%s/%s" % (e.get("stores", "?"), e.get("loads", "?")),
                                    e.get("stack", "?"), e.get("smem", "?"), n))
PY
done
