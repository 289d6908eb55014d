#!/usr/bin/env python3
"""Our kernels beside the labels-only peers, measured on the same images.

Reads cca_benchmark JSON files (--outputs labels and --outputs all, 2D and
3D) and the peers.json that ../shared/peers-bench writes in the same run,
and prints one Markdown table per dimension and connectivity: for each
granularity, pixels over the summed time first (the hard images near the
percolation threshold weigh in fully), then the mean of the per-image
throughputs over density (what the papers quote), in Gpix/s (Gvox/s in 3D).
The last rows give our labels-only and full-table runs against the best
peer on the summed time.

Usage: peers_table.py --peers peers.json OURS.json [OURS.json ...]
"""
import argparse
import json
import sys

KEYS = ("g1", "g4", "g16", "all")


def ours_rows(files):
    """{(dimension, neighbours): [(name, {key: (summed, mean)}, bytes/px)]}"""
    rows = {}
    for name in files:
        with open(name) as f:
            run = json.load(f)
        what = {"labels": "ours, labels only",
                "all": "ours, labels + runs + feature table",
                "features": "ours, feature table"}[run["outputs"]]
        if run.get("labelsOnDevice"):
            what += " (labels in device memory)"
        for s in run["summary"]:
            cells = {k: (s.get(k + "KernelGpixPerSTimeWeighted"), s.get(k + "KernelGpixPerS")) for k in KEYS}
            memory = max(s.get(k + "MaxDeviceBytesPerPixel", 0) for k in KEYS)
            rows.setdefault((run.get("dimension", 2), s["neighbours"]), []).append((what, cells, memory))
    return rows


def peer_rows(path):
    with open(path) as f:
        peers = json.load(f)
    rows = {}
    for p in peers["summary"]:
        if p.get("status") != "ok":
            continue
        cells = {k: (p.get(k + "_time_weighted"), p.get(k)) for k in KEYS}
        rows.setdefault((p["dims"], p["conn"]), []).append((p["peer"], cells))
    return rows, peers.get("device", {})


def cell(values):
    summed, mean = values
    if summed is None:
        return "-"
    return f"**{summed:.1f}** / {mean:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", required=True)
    parser.add_argument("ours", nargs="+")
    args = parser.parse_args()
    ours = ours_rows(args.ours)
    peers, device = peer_rows(args.peers)
    if device:
        print(f"Device: {device}\n")
    for key in sorted(set(ours) | set(peers)):
        dimension, neighbours = key
        unit = "Gvox/s" if dimension == 3 else "Gpix/s"
        print(f"### {dimension}D, {neighbours}-connectivity ({unit}: summed / mean over density)\n")
        print("| implementation | g = 1 | g = 4 | g = 16 | all foreground | device bytes/pixel |")
        print("| --- | --- | --- | --- | --- | --- |")
        for what, cells, memory in ours.get(key, []):
            print(f"| {what} | " + " | ".join(cell(cells[k]) for k in KEYS) + f" | {memory:.1f} |")
        theirs = sorted(peers.get(key, []), key=lambda r: -(r[1]["g1"][0] or 0))
        for name, cells in theirs:
            print(f"| {name} (labels only) | " + " | ".join(cell(cells[k]) for k in KEYS) + " | |")
        if theirs:
            for what, cells, _ in ours.get(key, []):
                ratios = []
                for k in KEYS:
                    best = max((c[k][0] or 0) for _, c in theirs)
                    ratios.append(f"{cells[k][0] / best:.2f}x" if best and cells[k][0] else "-")
                print(f"| {what} / best peer, summed | " + " | ".join(ratios) + " | |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
