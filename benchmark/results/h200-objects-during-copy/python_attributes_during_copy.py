#!/usr/bin/env python3
"""label_shape_statistics with a host label image, call after call: the
shape attributes are computed while the engine copies the label image
(Options::objectsReady). Prints each call's wall time beside the engine's
total, its download and the attributes' own time: where the attributes
are hidden, the wall time is the engine's plus the columns'.

    python python_attributes_during_copy.py [--calls 6]
"""

import argparse
import pathlib
import sys
import time

import numpy as np

import cudalabelstatistics as cls

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))  # benchmark/
from python_benchmark import random_blocks  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=6)
    args = parser.parse_args()
    shape = (560, 2048, 2048)
    mask = random_blocks(shape, 0.3, 16, 4016)
    cls.label(np.ones((64, 64), np.uint8), backend="cuda")  # CUDA start-up
    for k in range(args.calls):
        start = time.perf_counter()
        stats = cls.label_shape_statistics(mask, label_image=True, label_dtype=np.uint64, backend="cuda")
        wall = (time.perf_counter() - start) * 1e3
        t = stats.times
        print(f"call {k + 1}: wall {wall:.1f} ms, engine {t['total_ms']:.1f} (download {t['download_ms']:.1f}), "
              f"shape attributes {t['shape_attributes_ms']:.1f}, columns {t['columns_ms']:.1f}; "
              f"{stats.number_of_labels} objects", flush=True)
        del stats
        cls._core.wait_for_host_image_pinning()  # as a program that does other work between images


if __name__ == "__main__":
    main()
