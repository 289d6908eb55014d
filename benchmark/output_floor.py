#!/usr/bin/env python3
"""How fast the full table could be at best, from what it must write.

A full-table run (cca_benchmark --outputs all) labels the image and then
writes, per image, the feature table (one entry per component: 160 bytes,
NarrowFeatures, on volumes of fewer than 2^29 pixels, where the dense table
holds 32-bit counts, 96, PlanarFeatures, on such 2D images; 216,
ComponentFeatures, on larger ones) and the runs
grouped by component (one 16-byte Run each).
Whatever computes them, those bytes cross the device's memory bus at least
once after the labels exist. So per image

    floor = labels-only time (measured, same images) + output bytes / bandwidth

is a lower bound on the full table's time with the labels as fast as they
are now, and pixels over the summed floors bounds its summed throughput.
The script reads a labels-only and a full-table JSON of the same images
(same call) for 2D and/or 3D and prints, per connectivity and granularity,
both measured throughputs, the floor, and issue 13's target for the full
table with the time it allows. Where the floor exceeds that time, the
target cannot be met without labels-only getting faster.

Usage: output_floor.py --labels k2-labels.json [k3-labels.json]
                       --all k2-all.json [k3-all.json] [--bandwidth-tbs 4.8]
(4.8 TB/s is the H200's peak; its measured streaming writes reach about 4.)
"""
import argparse
import json

RECORD_BYTES = 216  # sizeof(cca::ComponentFeatures)
NARROW_RECORD_BYTES = 160  # sizeof(cca::NarrowFeatures), src/NarrowFeatures.h
PLANAR_RECORD_BYTES = 96  # sizeof(cca::PlanarFeatures): 2D images
NARROW_MOST_PIXELS = (1 << 29) - 1  # cca::NarrowFeaturesMostPixels
RUN_BYTES = 16  # sizeof(cca::Run)

# Issue 13's full-table targets, Gpix/s (Gvox/s), g = 1 / 4 / 16.
TARGETS = {
    (2, "face"): (70, 75, 130),
    (2, "full"): (86, 96, 108),
    (3, "face"): (52, 67, 130),
    (3, "full"): (60, 67, 105),
}
GRANULARITIES = (1, 4, 16)


def load(paths):
    """{(dimension, connectivity, g, density): measurement} over the files,
    and {dimension: image size}."""
    out = {}
    sizes = {}
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        sizes[run["dimension"]] = run["size"]
        for m in run["measurements"]:
            if m["allForeground"] or m["g"] not in GRANULARITIES:
                continue
            out[(run["dimension"], m["connectivity"], m["g"], m["density"])] = m
    return out, sizes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", nargs="+", required=True, help="cca_benchmark --outputs labels JSON")
    parser.add_argument("--all", nargs="+", required=True, help="cca_benchmark --outputs all JSON, same images")
    parser.add_argument("--bandwidth-tbs", type=float, default=4.8, help="device memory bandwidth, TB/s")
    args = parser.parse_args()
    labels, _ = load(args.labels)
    full, sizes = load(args.all)
    bandwidth = args.bandwidth_tbs * 1e12
    print(f"Output floor at {args.bandwidth_tbs} TB/s: labels-only time + (components x {NARROW_RECORD_BYTES} B"
          f" ({PLANAR_RECORD_BYTES} B in 2D, {RECORD_BYTES} B from 2^29 pixels) + runs x {RUN_BYTES} B) / bandwidth,"
          " summed over the densities.\n")
    print("| images | g | labels only ms (G/s) | full table ms (G/s) | outputs GB | floor ms (G/s) "
          "| target G/s: allows ms | floor within it |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for (dimension, connectivity), targets in TARGETS.items():
        for g, target in zip(GRANULARITIES, targets):
            keys = sorted(k for k in full if k[:3] == (dimension, connectivity, g) and k in labels)
            if not keys:
                continue
            pixels = sum(full[k]["kernelGpixPerS"] * full[k]["kernelMs"] * 1e6 for k in keys)
            labelsMs = sum(labels[k]["kernelMs"] for k in keys)
            fullMs = sum(full[k]["kernelMs"] for k in keys)
            narrow = PLANAR_RECORD_BYTES if dimension == 2 else NARROW_RECORD_BYTES
            record = narrow if sizes[dimension] ** dimension <= NARROW_MOST_PIXELS else RECORD_BYTES
            outputBytes = sum(full[k]["components"] * record + full[k]["runs"] * RUN_BYTES for k in keys)
            floorMs = labelsMs + outputBytes / bandwidth * 1e3
            allowedMs = pixels / (target * 1e6)
            rate = lambda ms: pixels / (ms * 1e6)
            neighbours = {(2, "face"): 4, (2, "full"): 8, (3, "face"): 6, (3, "full"): 26}[(dimension, connectivity)]
            print(f"| {dimension}D {neighbours}-conn. | {g} | {labelsMs:.2f} ({rate(labelsMs):.1f}) "
                  f"| {fullMs:.2f} ({rate(fullMs):.1f}) | {outputBytes / 1e9:.2f} "
                  f"| {floorMs:.2f} ({rate(floorMs):.1f}) | {target}: {allowedMs:.2f} "
                  f"| {'yes' if floorMs <= allowedMs else '**no**'} ({allowedMs - floorMs:+.2f} ms) |")


if __name__ == "__main__":
    main()
