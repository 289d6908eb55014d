#!/usr/bin/env python3
"""Plots and tabulates the benchmark JSON files.

Reads any mix of the JSON written by cca_benchmark (--outputs features, all
or labels; 2D images or 3D volumes), cca_npp_benchmark and
cca_filter_benchmark, and writes, per connectivity (3D volumes apart:
"face-3d", "full-3d"), one PNG of time (ms, log scale) against density: one
panel per granularity g = 1, 4, 16 and one for the all-foreground image, one
line per implementation and image size. It also writes a Markdown table of
the averages over density, both ways the README explains: all pixels over
the summed time first, then the mean of the per-image throughputs (as the
papers average), in Gpix/s (Gvox/s for volumes), plus the mean time per
image and, for cca_benchmark, the most device memory an image needed (bytes
per pixel).

usage: plot.py [--out DIR] [--table FILE] [--title TEXT] FILE.json ...
"""
import argparse
import json
import os
import sys
from collections import defaultdict


OUTPUTS = {"all": "labels+runs+features", "labels": "labels only", "features": "features"}


def series_of(doc):
    """Yields (implementation name, connectivity, size, dimension, measurement, ms) for one JSON document.

    The connectivity of a 3D document gets "-3d" (face = 6, full = 26 neighbours)."""
    program = doc.get("program", "cca_benchmark")
    size = doc["size"]
    dim = doc.get("dimension", 2)
    for m in doc["measurements"]:
        conn = m["connectivity"] + ("-3d" if dim == 3 else "")
        if program == "cca_benchmark":
            what = OUTPUTS.get(doc.get("outputs"), doc.get("outputs"))
            if doc.get("labelsOnDevice"):
                what += ", labels in device memory"
            backend = doc.get("backend", "cuda").upper()
            if "algorithm" in m and len({x.get("algorithm") for x in doc["measurements"]}) > 1:
                # A strategy comparison (--algorithm all): one line per strategy, kernels only.
                yield (f"{m['algorithm']} kernels ({what}, {backend})", conn, size, dim, m,
                       m["labelMs"] + m["featuresMs"])
                continue
            yield f"ours engine kernels ({what}, {backend})", conn, size, dim, m, m["labelMs"] + m["featuresMs"]
            yield f"ours engine end-to-end ({what}, {backend})", conn, size, dim, m, m["totalMs"]
        elif program == "cca_npp_benchmark":
            yield f"NPP {doc.get('npp', '')} LabelMarkersUF (labels only)", conn, size, dim, m, m["nppMs"]
        elif program == "cca_filter_benchmark":
            if m.get("error"):
                continue
            if m["impl"] == "itk-cpu":
                name = f"ITK 5.2.1 BinaryImageToShapeLabelMapFilter (CPU, {doc.get('itkThreads', '?')} threads)"
            else:
                used = m["backendUsed"] if m["impl"] == "ours-cpu" else f"Backend Auto: {m['backendUsed']}"
                name = f"ours ITK filter Update() ({used})"
                if m["impl"] == "ours-auto" and m["backendUsed"] == "CUDA":
                    yield "ours ITK filter, its kernels (CUDA)", conn, size, dim, m, m["labelMs"] + m["featuresMs"]
            yield name, conn, size, dim, m, m["updateMs"]


def key_of(m):
    return "all" if m.get("allForeground") else f"g{m['g']}"


def load(files):
    """{connectivity: {(name, size, dimension): [(key, density, ms, device bytes per pixel), ...]}}
    and the check notes."""
    data = defaultdict(lambda: defaultdict(list))
    notes = []
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        for name, conn, size, dim, m, ms in series_of(doc):
            data[conn][(name, size, dim)].append((key_of(m), m["density"], ms, m.get("deviceBytesPerPixel", -1)))
        program = doc.get("program", "cca_benchmark")
        if program == "cca_npp_benchmark":
            for s in doc.get("summary", []):
                notes.append(f"NPP {s['connectivity']}: components split on {s['imagesWithSplitComponents']} of "
                             f"{s['images']} images, merged on {s['imagesWithMergedComponents']} "
                             f"({os.path.basename(path)})")
        if program == "cca_filter_benchmark":
            checks = defaultdict(lambda: defaultdict(int))
            for m in doc["measurements"]:
                if m["impl"] != "itk-cpu":
                    checks[m["impl"]][m["check"]] += 1
            for impl, c in checks.items():
                notes.append(f"ours {impl} vs ITK, same objects/NumberOfPixels/BoundingBox: "
                             + ", ".join(f"{k} {v}" for k, v in sorted(c.items())) + f" ({os.path.basename(path)})")
    return data, notes


KEYS = ["g1", "g4", "g16", "all"]
NEIGHBOURS = {"face": 4, "full": 8, "face-3d": 6, "full-3d": 26}


def averages(points, size, dim=2):
    """{key: (pixels over summed time Gpix/s, mean Gpix/s, mean ms, images)}."""
    pixels = float(size) ** dim
    out = {}
    for key in KEYS:
        ms = [p[2] for p in points if p[0] == key]
        if not ms:
            continue
        mean = sum(pixels / (t * 1e6) for t in ms) / len(ms)
        weighted = pixels * len(ms) / (sum(ms) * 1e6)
        out[key] = (weighted, mean, sum(ms) / len(ms), len(ms))
    return out


def shape(size, dim):
    return f"{size}{'³' if dim == 3 else '²'}"


def order(item):
    """Largest images first, then by name."""
    (name, size, dim), _ = item
    return -float(size) ** dim, name


def table(data, notes, title):
    lines = [f"### {title}" if title else "", "",
             "Gpix/s (Gvox/s for volumes): all pixels over summed time / mean over density; ms: mean time per "
             "image; device memory: the most bytes per pixel that the engine's buffers held for one image.", ""]
    lines.append("| connectivity | implementation | N | g = 1 | g = 4 | g = 16 | all foreground | device memory |")
    lines.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for conn in sorted(data):
        for (name, size, dim), points in sorted(data[conn].items(), key=order):
            avg = averages(points, size, dim)
            unit = "Gvox/s" if dim == 3 else "Gpix/s"
            cells = []
            for key in KEYS:
                if key not in avg:
                    cells.append("")
                    continue
                weighted, mean, ms, _ = avg[key]
                cells.append(f"{weighted:.4g} / {mean:.4g} {unit}, {ms:.4g} ms" if key != "all"
                             else f"{mean:.4g} {unit}, {ms:.4g} ms")
            memory = max((p[3] for p in points), default=-1)
            cells.append(f"{memory:.3g} B/px" if memory >= 0 and "kernels" in name else "")
            lines.append(f"| {conn} | {name} | {shape(size, dim)} | " + " | ".join(cells) + " |")
    if notes:
        lines += ["", "Checks:", ""] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def plot(data, out_dir, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    for conn in sorted(data):
        fig, axes = plt.subplots(1, 4, figsize=(20, 5.5), gridspec_kw={"width_ratios": [3, 3, 3, 1.5]})
        series = sorted(data[conn].items(), key=order)
        colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        styles = {}
        for i, ((name, size, dim), _) in enumerate(series):
            large = float(size) ** dim >= 8192.0 ** 2
            styles[(name, size, dim)] = dict(color=colors[i % len(colors)], linestyle="-" if large else "--",
                                             marker="o" if large else "s")
        for ax, key in zip(axes[:3], KEYS[:3]):
            for (name, size, dim), points in series:
                pts = sorted((p[1], p[2]) for p in points if p[0] == key)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], label=f"{name}, {shape(size, dim)}",
                            markersize=4, **styles[(name, size, dim)])
            ax.set_yscale("log")
            ax.set_xlabel("density")
            ax.set_title(f"g = {key[1:]}")
            ax.grid(True, which="both", alpha=0.3)
        axes[0].set_ylabel("time per image (ms)")
        # The all-foreground image: one point per implementation, colours as in the legend.
        ax = axes[3]
        for i, (series_key, points) in enumerate(series):
            for p in points:
                if p[0] == "all":
                    st = styles[series_key]
                    ax.plot([i], [p[2]], marker=st["marker"], color=st["color"], linestyle="none", markersize=7)
        ax.set_yscale("log")
        ax.set_xticks([])
        ax.set_xlim(-1, len(series))
        ax.set_xlabel("one point per line of the legend")
        ax.set_title("all foreground")
        ax.grid(True, which="both", axis="y", alpha=0.3)
        # Every line once, also those drawn only at some granularities (a --g run).
        legend = {}
        for ax in axes[:3]:
            for handle, label in zip(*ax.get_legend_handles_labels()):
                legend.setdefault(label, handle)
        handles, labels = list(legend.values()), list(legend)
        fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8)
        neighbours = NEIGHBOURS.get(conn)
        fig.suptitle(f"{title} {conn} connectivity{f' ({neighbours} neighbours)' if neighbours else ''}".strip())
        fig.tight_layout(rect=(0, 0.16, 1, 0.95))
        path = os.path.join(out_dir, f"bench-{conn}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--out", default=".", help="folder for the PNG files")
    parser.add_argument("--table", help="write the Markdown table here too")
    parser.add_argument("--title", default="", help="e.g. the device name")
    parser.add_argument("--no-plot", action="store_true")
    args = parser.parse_args()
    files = [f for f in args.files if os.path.exists(f)]
    missing = sorted(set(args.files) - set(files))
    if missing:
        print("missing (skipped):", ", ".join(missing), file=sys.stderr)
    data, notes = load(files)
    text = table(data, notes, args.title)
    print(text)
    if args.table:
        os.makedirs(os.path.dirname(os.path.abspath(args.table)), exist_ok=True)
        with open(args.table, "w") as f:
            f.write(text)
    if not args.no_plot:
        os.makedirs(args.out, exist_ok=True)
        for path in plot(data, args.out, args.title):
            print("wrote", path)


if __name__ == "__main__":
    main()
