#!/usr/bin/env python3
"""Checks that every kernel of the CUDA backend begins with AwaitPrecedingKernel().

The backend launches its kernels as programmatic dependent launches
(cuda/DependentLaunch.cuh): a kernel may start while the one before it on
the stream still runs, so a kernel that read or wrote memory before that
wait could see the earlier kernel's work half done. Usage:
check-kernel-awaits.py [cuda directory]; exits 1 naming each kernel that
does not begin with the wait.
"""
import pathlib
import re
import sys

AWAIT = "AwaitPrecedingKernel();"
BEGINS_WITH_AWAIT = re.compile(r"(cca::)?(cuda::)?AwaitPrecedingKernel\(\);")


def kernel_bodies(text):
    """(line, body) of each __global__ function defined in text."""
    for match in re.finditer(r"__global__", text):
        depth = 0
        for i in range(match.end(), len(text)):
            c = text[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif c == ";" and depth == 0:
                break  # a declaration, not a definition
            elif c == "{" and depth == 0:
                yield text.count("\n", 0, match.start()) + 1, text[i + 1:]
                break


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent / "cuda")
    kernels = 0
    missing = []
    for path in sorted(list(root.glob("*.cuh")) + list(root.glob("*.cu"))):
        for line, body in kernel_bodies(path.read_text()):
            kernels += 1
            if not BEGINS_WITH_AWAIT.match(body.lstrip()):
                missing.append(f"{path.name}:{line}")
    if kernels == 0:
        print(f"no kernels found under {root}")
        return 1
    for where in missing:
        print(f"{where}: the kernel does not begin with {AWAIT}")
    print(f"{kernels} kernels, {len(missing)} without the wait")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
