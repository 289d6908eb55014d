#!/usr/bin/env python3
"""How long today's passes would take if every kernel moved its DRAM bytes
at the copy's bandwidth, beside the measured time and issue 13's target.

  floor.py NCU_DIR TIME_JSON... [--copy-tbps X] [--top N]

NCU_DIR holds one ncu CSV an image (benchmark/ncu_kernel_map.sh, named
<dim>d-<conn>-d<density>.csv; every kernel launched twice, so the sums are
halved). TIME_JSON are cca_benchmark --json files of the same sets; the
sets' d = 0 images, which move next to nothing, count only there.

Two bounds a set: every kernel at the bandwidth; and the union-find's
kernels (Link*: they join runs through parents scattered over memory,
each load waiting on the last) held at their measured time with every
other kernel at the bandwidth. With --labels-json (cca_benchmark --outputs labels of the same
sets), a third for any design that keeps today's labeling: labels only as
measured plus the table's own output (the entries and the grouped runs)
written once at the bandwidth.
"""

import argparse
import collections
import glob
import json
import os
import re
import sys

# The CSV read as benchmark/ncu_kernel_table.py reads it.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from ncu_kernel_table import read_kernels  # noqa: E402

# Issue 13's g = 1 targets (Gpix/s, full table) and the images' pixels.
TARGETS = {("2", "face"): 70.0, ("2", "full"): 86.0, ("3", "face"): 52.0}
PIXELS = {"2": 8192 * 8192, "3": 512**3}
# Bytes of a component's entry on the device (PlanarFeatures in planes,
# NarrowFeatures in volumes: src/NarrowFeatures.h) and of a grouped run.
ENTRY_BYTES = {"2": 96, "3": 160}
RUN_BYTES = 16


def ncu_kernels(path):
    """Each kernel's time (us) and DRAM bytes in one run: launches summed, halved."""
    return {
        name: [
            k.get("gpu__time_duration.sum", 0) / 2e3,
            (k.get("dram__bytes_read.sum", 0) + k.get("dram__bytes_write.sum", 0)) / 2,
        ]
        for name, k in read_kernels(path).items()
    }


def g1_measurements(paths):
    """(dimension, connectivity, density) -> the g = 1 image's measurement, as cca_benchmark wrote it."""
    found = {}
    for path in paths:
        doc = json.load(open(path))
        for m in doc["measurements"]:
            if m["g"] == 1 and not m["allForeground"]:
                found[(str(doc["dimension"]), m["connectivity"], round(m["density"], 1))] = m
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ncu_dir")
    parser.add_argument("time_json", nargs="+")
    parser.add_argument("--copy-tbps", type=float, default=3.0, help="the bandwidth of the bounds (TB/s)")
    parser.add_argument("--top", type=int, default=10, help="kernels listed a set, most bytes first")
    parser.add_argument("--labels-only", action="store_true", help="the CSVs are of labels only: no target's bounds")
    parser.add_argument("--labels-json", nargs="*", default=[], help="labels-only runs of the same sets")
    args = parser.parse_args()
    rate = args.copy_tbps * 1e12
    timed = g1_measurements(args.time_json)
    labels = g1_measurements(args.labels_json)
    sets = {}
    for path in sorted(glob.glob(os.path.join(args.ncu_dir, "*.csv"))):
        match = re.match(r"(\d)d-(\w+)-d([\d.]+)\.csv", os.path.basename(path))
        if match:
            key = (match.group(1), match.group(2))
            sets.setdefault(key, []).append((round(float(match.group(3)), 1), ncu_kernels(path)))
    for (dim, conn), images in sorted(sets.items()):
        images.sort(key=lambda image: image[0])
        what = "labels only" if args.labels_only else "full table"
        print(f"== {dim}D {conn}, g = 1, {what}: us a run, GB, the bytes at {args.copy_tbps:.2f} TB/s")
        print("   d    timed     ncu     GB  bytes' time")
        whole = collections.defaultdict(lambda: [0.0, 0.0])
        for density, kernels in images:
            us = sum(k[0] for k in kernels.values())
            nbytes = sum(k[1] for k in kernels.values())
            for name, (t, b) in kernels.items():
                whole[name][0] += t
                whole[name][1] += b
            t = timed[(dim, conn, density)]["kernelMs"] * 1e3 if (dim, conn, density) in timed else float("nan")
            print(f"  {density:.1f} {t:8.0f} {us:7.0f} {nbytes / 1e9:6.2f} {nbytes / rate * 1e6:8.0f}")
        timed_set = [m["kernelMs"] * 1e3 for (tdim, tconn, _), m in timed.items() if (tdim, tconn) == (dim, conn)]
        timed_us = sum(timed_set)
        pixels = PIXELS[dim] * len(timed_set)
        ncu_us = sum(k[0] for k in whole.values())
        nbytes = sum(k[1] for k in whole.values())
        link_us = sum(t for name, (t, _) in whole.items() if name.startswith("Link"))
        link_bytes = sum(b for name, (_, b) in whole.items() if name.startswith("Link"))
        speed = f"{pixels / timed_us / 1e3:.1f} Gpix/s" if timed_us else "no timed run"
        print(f"  set of {len(timed_set)} images: timed {timed_us:.0f} us ({speed});"
              f" ncu {ncu_us:.0f} us, {nbytes / 1e9:.1f} GB, {nbytes / ncu_us / 1e6:.2f} TB/s on average;"
              f" the union-find (Link*) {link_us:.0f} us, {link_bytes / 1e9:.2f} GB")
        if args.labels_only or not timed_us:
            print("  kernels, most bytes first: us, GB, TB/s")
            for name, (t, b) in sorted(whole.items(), key=lambda kv: -kv[1][1])[: args.top]:
                print(f"    {name[:44]:44s} {t:6.0f} {b / 1e9:6.2f} {b / t / 1e6 if t else 0:5.2f}")
            continue
        target_us = pixels / (TARGETS[(dim, conn)] * 1e9) * 1e6
        print(f"  the target, {TARGETS[(dim, conn)]:.0f} Gpix/s, allows {target_us:.0f} us:"
              f" {nbytes / target_us / 1e6:.2f} TB/s on average for these bytes")
        print(f"  every kernel at {args.copy_tbps:.2f} TB/s: {nbytes / rate * 1e6:.0f} us"
              f" ({nbytes / rate * 1e6 / target_us:.0%} of the target's time)")
        rest = (nbytes - link_bytes) / rate * 1e6
        print(f"  the union-find (Link*) as measured, {link_us:.0f} us, the rest at {args.copy_tbps:.2f} TB/s,"
              f" {rest:.0f} us: {link_us + rest:.0f} us ({(link_us + rest) / target_us:.0%} of the target's time)")
        change = (target_us - rest) / link_us - 1
        print(f"  with the rest at {args.copy_tbps:.2f} TB/s the union-find may take {target_us - rest:.0f} us,"
              f" {abs(change):.0%} {'more' if change >= 0 else 'less'} than today")
        print(f"  the other kernels move {(nbytes - link_bytes) / 1e9:.1f} GB at"
              f" {(nbytes - link_bytes) / (ncu_us - link_us) / 1e6:.2f} TB/s today; beside the union-find's time"
              f" the target needs {(nbytes - link_bytes) / (target_us - link_us) / 1e6:.2f} TB/s of them")
        labels_set = [m for (ldim, lconn, _), m in labels.items() if (ldim, lconn) == (dim, conn)]
        if labels_set:
            found = [m for (tdim, tconn, _), m in timed.items() if (tdim, tconn) == (dim, conn)]
            labels_us = sum(m["kernelMs"] for m in labels_set) * 1e3
            output = sum(m["components"] * ENTRY_BYTES[dim] + m["runs"] * RUN_BYTES for m in found)
            output_us = output / rate * 1e6
            print(f"  labels only {labels_us:.0f} us; the table's output {output / 1e9:.2f} GB, {output_us:.0f} us"
                  f" at {args.copy_tbps:.2f} TB/s: together {labels_us + output_us:.0f} us"
                  f" ({(labels_us + output_us) / target_us:.0%} of the target's time)")
            print(f"  the table: today {timed_us - labels_us:.0f} us ({(timed_us - labels_us) / output_us:.1f}x its"
                  f" output's time); the target leaves {target_us - labels_us:.0f} us"
                  f" ({(target_us - labels_us) / output_us:.1f}x)")
        print("  kernels, most bytes first: us, GB, TB/s")
        for name, (t, b) in sorted(whole.items(), key=lambda kv: -kv[1][1])[: args.top]:
            print(f"    {name[:44]:44s} {t:6.0f} {b / 1e9:6.2f} {b / t / 1e6 if t else 0:5.2f}")


if __name__ == "__main__":
    main()
