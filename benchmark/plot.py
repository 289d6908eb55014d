#!/usr/bin/env python3
"""Plots and tabulates the benchmark JSON files.

Reads any mix of the JSON written by cca_benchmark (--outputs features or
all), cca_npp_benchmark and cca_filter_benchmark, and writes, per
connectivity, one PNG of time (ms, log scale) against density: one panel per
granularity g = 1, 4, 16 and one for the all-foreground image, one line per
implementation and image size. It also writes a Markdown table of the
averages over density, both ways the README explains: the mean of the
per-image throughputs (as the papers average) and all pixels over the summed
time, plus the mean time per image.

usage: plot.py [--out DIR] [--table FILE] [--title TEXT] FILE.json ...
"""
import argparse
import json
import os
import sys
from collections import defaultdict


def series_of(doc):
    """Yields (implementation name, connectivity, size, measurement, ms) for one JSON document."""
    program = doc.get("program", "cca_benchmark")
    size = doc["size"]
    for m in doc["measurements"]:
        conn = m["connectivity"]
        if program == "cca_benchmark":
            what = "labels+features" if doc.get("outputs") == "all" else "features"
            backend = doc.get("backend", "cuda").upper()
            if "algorithm" in m and len({x.get("algorithm") for x in doc["measurements"]}) > 1:
                # A strategy comparison (--algorithm all): one line per strategy, kernels only.
                yield f"{m['algorithm']} kernels ({what}, {backend})", conn, size, m, m["labelMs"] + m["featuresMs"]
                continue
            yield f"ours engine kernels ({what}, {backend})", conn, size, m, m["labelMs"] + m["featuresMs"]
            yield f"ours engine end-to-end ({what}, {backend})", conn, size, m, m["totalMs"]
        elif program == "cca_npp_benchmark":
            yield f"NPP {doc.get('npp', '')} LabelMarkersUF (labels only)", conn, size, m, m["nppMs"]
        elif program == "cca_filter_benchmark":
            if m.get("error"):
                continue
            if m["impl"] == "itk-cpu":
                name = f"ITK 5.2.1 BinaryImageToShapeLabelMapFilter (CPU, {doc.get('itkThreads', '?')} threads)"
            else:
                used = m["backendUsed"] if m["impl"] == "ours-cpu" else f"Backend Auto: {m['backendUsed']}"
                name = f"ours ITK filter Update() ({used})"
                if m["impl"] == "ours-auto" and m["backendUsed"] == "CUDA":
                    yield "ours ITK filter, its kernels (CUDA)", conn, size, m, m["labelMs"] + m["featuresMs"]
            yield name, conn, size, m, m["updateMs"]


def key_of(m):
    return "all" if m.get("allForeground") else f"g{m['g']}"


def load(files):
    """{connectivity: {(name, size): [(key, density, ms), ...]}} and the check notes."""
    data = defaultdict(lambda: defaultdict(list))
    notes = []
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        for name, conn, size, m, ms in series_of(doc):
            data[conn][(name, size)].append((key_of(m), m["density"], ms))
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


def averages(points, size):
    """{key: (mean Gpix/s, pixels over summed time Gpix/s, mean ms, images)}."""
    pixels = float(size) * size
    out = {}
    for key in KEYS:
        ms = [p[2] for p in points if p[0] == key]
        if not ms:
            continue
        mean = sum(pixels / (t * 1e6) for t in ms) / len(ms)
        weighted = pixels * len(ms) / (sum(ms) * 1e6)
        out[key] = (mean, weighted, sum(ms) / len(ms), len(ms))
    return out


def table(data, notes, title):
    lines = [f"### {title}" if title else "", "",
             "Gpix/s: mean over density / all pixels over summed time; ms: mean time per image.", ""]
    lines.append("| connectivity | implementation | N | g = 1 | g = 4 | g = 16 | all foreground |")
    lines.append("| --- | --- | --- | --- | --- | --- | --- |")
    for conn in sorted(data):
        for (name, size), points in sorted(data[conn].items(), key=lambda kv: (-kv[0][1], kv[0][0])):
            avg = averages(points, size)
            cells = []
            for key in KEYS:
                if key not in avg:
                    cells.append("")
                    continue
                mean, weighted, ms, _ = avg[key]
                cells.append(f"{mean:.4g} / {weighted:.4g} Gpix/s, {ms:.4g} ms" if key != "all"
                             else f"{mean:.4g} Gpix/s, {ms:.4g} ms")
            lines.append(f"| {conn} | {name} | {size} | " + " | ".join(cells) + " |")
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
        series = sorted(data[conn].items(), key=lambda kv: (-kv[0][1], kv[0][0]))
        colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        styles = {}
        for i, ((name, size), _) in enumerate(series):
            styles[(name, size)] = dict(color=colors[i % len(colors)],
                                        linestyle="-" if size >= 8192 else "--",
                                        marker="o" if size >= 8192 else "s")
        for ax, key in zip(axes[:3], KEYS[:3]):
            for (name, size), points in series:
                pts = sorted((d, ms) for k, d, ms in points if k == key)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], label=f"{name}, {size}²",
                            markersize=4, **styles[(name, size)])
            ax.set_yscale("log")
            ax.set_xlabel("density")
            ax.set_title(f"g = {key[1:]}")
            ax.grid(True, which="both", alpha=0.3)
        axes[0].set_ylabel("time per image (ms)")
        # The all-foreground image: one point per implementation, colours as in the legend.
        ax = axes[3]
        for i, ((name, size), points) in enumerate(series):
            for k, d, ms in points:
                if k == "all":
                    st = styles[(name, size)]
                    ax.plot([i], [ms], marker=st["marker"], color=st["color"], linestyle="none", markersize=7)
        ax.set_yscale("log")
        ax.set_xticks([])
        ax.set_xlim(-1, len(series))
        ax.set_xlabel("one point per line of the legend")
        ax.set_title("all foreground")
        ax.grid(True, which="both", axis="y", alpha=0.3)
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8)
        fig.suptitle(f"{title} {conn} connectivity".strip())
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
