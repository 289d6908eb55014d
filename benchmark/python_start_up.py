#!/usr/bin/env python3
"""Times a Python process's first label() call with and without
cudalabelstatistics.start_cuda(), each in a fresh interpreter, alternating:

    plain:    import; read the mask; label()
    started:  import; start_cuda(); read the mask; label()

"Reading" is np.load of a 512 x 512 x 400 random block mask saved once as
.npy (from the page cache: fast), followed by --other-ms of sleep, a stand-in
for what a script does before its first call (decompressing a CT file,
building a mask). Prints each process's import, read and first-call times
and the total from before the import to the labels.

    python benchmark/python_start_up.py --processes 5 --other-ms 0 300
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

CHILD = r"""
import sys, time
t0 = time.perf_counter()
import numpy as np
import cudalabelstatistics as cls
t1 = time.perf_counter()
if sys.argv[2] == "started":
    cls.start_cuda()
mask = np.load(sys.argv[1])
time.sleep(float(sys.argv[3]) / 1e3)
t2 = time.perf_counter()
labels, count = cls.label(mask, backend=sys.argv[4])
t3 = time.perf_counter()
print(f"{(t1 - t0) * 1e3:.1f} {(t2 - t1) * 1e3:.1f} {(t3 - t2) * 1e3:.1f} {(t3 - t0) * 1e3:.1f} {count}")
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, default=5, help="fresh processes per way and pause")
    parser.add_argument("--other-ms", type=float, nargs="+", default=[0.0, 300.0])
    parser.add_argument("--backend", default="cuda", help="cuda (what is measured) or cpu (to try the script)")
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from python_benchmark import random_blocks

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "mask.npy")
        np.save(path, random_blocks((400, 512, 512), 0.3, 4, 1004))
        print("way      other ms  import ms  read+other ms  first label() ms  total ms  (objects)")
        for other in args.other_ms:
            totals = {"plain": [], "started": []}
            for _ in range(args.processes):
                for way in ("plain", "started"):
                    out = subprocess.run([sys.executable, "-c", CHILD, path, way, str(other), args.backend], check=True,
                                         capture_output=True, text=True).stdout.split()
                    imported, read, first, total, count = out
                    totals[way].append(float(total))
                    print(f"{way:8s} {other:8.0f} {imported:>10s} {read:>14s} {first:>17s} {total:>9s}  ({count})")
            for way, values in totals.items():
                print(f"  {way}, other {other:.0f} ms: total median {statistics.median(values):.1f} ms"
                      f" (min {min(values):.1f}, max {max(values):.1f})")


if __name__ == "__main__":
    main()
