#!/usr/bin/env python3
"""Times cudalabelstatistics.label() on a large host volume with its label
image, call after call, with the host image pool (label images of 64 MiB and
more in blocks kept for the next call, page-locked after their second use)
and without it (a new NumPy array per call), in alternating rounds.

    python benchmark/python_label_images.py                 # 2048 x 2048 x 560, uint64 and uint32
    python benchmark/python_label_images.py --size 512 512 200 --calls 4

Each call is `labels, count = cls.label(mask, ...)` in a loop, as a user
writes it: the previous label image is still alive while the next is made, so
the pool alternates two blocks. With --settle the loop waits between calls
until the pool has page-locked what it would lock in the background (the time
of a program that does other work between images); without it the calls
follow each other at once. Every call's wall time is printed.
"""

from __future__ import annotations

import argparse
import gc
import time

import numpy as np

import cudalabelstatistics as cls
from python_benchmark import random_blocks  # beside this script


def calls(mask, dtype, count, pool, settle):
    """count calls; returns their wall times in ms."""
    cls.release_cached_memory()
    cls.set_host_image_idle_limit(pool)
    labels = None
    times = []
    for _ in range(count):
        start = time.perf_counter()
        labels, _ = cls.label(mask, label_dtype=dtype, backend="cuda")
        times.append((time.perf_counter() - start) * 1e3)
        if settle:
            cls._core.wait_for_host_image_pinning()
    del labels
    gc.collect()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, nargs=3, default=(560, 2048, 2048), metavar=("Z", "Y", "X"))
    parser.add_argument("--calls", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=2, help="rounds of (no pool, pool)")
    parser.add_argument("--dtype", nargs="+", default=["uint64", "uint32"])
    parser.add_argument("--settle", action="store_true", help="wait for the pool's locking between calls")
    args = parser.parse_args()
    if not cls.cuda_available():
        raise SystemExit("no usable CUDA device")
    shape = tuple(args.size)
    start = time.perf_counter()
    mask = random_blocks(shape, 0.3, 4, 4005)
    print(f"mask {shape[2]}x{shape[1]}x{shape[0]} (g=4, d=0.3, seed 4005) made in "
          f"{time.perf_counter() - start:.1f} s; {mask.nbytes / 1e9:.2f} GB", flush=True)
    cls.label(np.ones((64, 64), np.uint8), backend="cuda")  # CUDA start-up
    limit = cls.host_image_idle_limit()
    for dtype in args.dtype:
        nbytes = mask.size * np.dtype(dtype).itemsize
        for r in range(args.rounds):
            for name, pool in (("new memory", 0), ("pool", limit)):
                times = calls(mask, dtype, args.calls, pool, args.settle)
                rate = ", ".join(f"{t:.0f}" for t in times)
                print(f"{dtype} round {r + 1} {name:10s} ({nbytes / 1e9:.1f} GB labels"
                      f"{', settled' if args.settle else ''}): {rate} ms; best {min(times):.0f} ms", flush=True)
    cls.set_host_image_idle_limit(limit)


if __name__ == "__main__":
    main()
