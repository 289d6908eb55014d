#!/usr/bin/env python3
"""The end-to-end results of cca_e2e_benchmark (issue 10) as a Markdown table
and a bar chart: per mask, Update() of our filter (CUDA) and of ITK's
BinaryImageToShapeLabelMapFilter, the ratio, and where our time goes (engine:
upload, kernels, download; the LabelMap; the rest of Update), with the engine
alone against its bound (bytes / measured pinned bandwidth + kernel time),
then with the mask's read as the upload's floor: the best engine against a
bound measured apart, and the median of the repetitions each against the read
measured right after it.

Usage: plot_e2e.py [--out DIR] [--table FILE] [--title TEXT] E2E.json [E2E.json ...]
"""
import argparse
import json
import os


def rows_of(files):
    rows, runs = [], []
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        runs.append(doc)
        rows.extend(doc["rows"])
    return rows, runs


def table(rows, runs, title):
    itk = {r["mask"]: r["updateMs"] for r in rows if r["impl"] == "itk"}
    lines = []
    if title:
        lines.append(f"{title}\n")
    for run in runs:
        lines.append(f"pinned bandwidth H2D {run['pinnedHostToDeviceGBs']:.1f} GB/s, D2H "
                     f"{run['pinnedDeviceToHostGBs']:.1f} GB/s; CUDA start-up {run['startCudaMs']:.0f} ms; "
                     f"{run['threads']} threads; best of {run['reps']} (ITK: {run['itkReps']}, 1 past 5 s)\n")
    lines.append("| mask | impl | objects | Update ms | ITK ms | x ITK | engine | upload | kernels | download "
                 "| LabelMap | rest | engine alone / bound | with the mask's read: best, paired median | check |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if r["impl"] == "itk":
            continue
        reference = itk.get(r["mask"])
        kernels = r["labelMs"] + r["featuresMs"]
        rest = r["updateMs"] - r["engineTotalMs"] - r["labelMapMs"]
        bound = (f"{r['engineAloneMs']:.1f} / {r['boundMs']:.1f} ms = {r['engineAloneMs'] / r['boundMs']:.2f}"
                 if r.get("boundMs") else "")
        host = ""
        if r.get("hostBoundMs"):
            host = f"{r['engineAloneMs'] / r['hostBoundMs']:.2f}"
            if r.get("pairedRatioMedian"):
                host += (f", {r['pairedRatioMedian']:.2f} ({r['pairedRatioMin']:.2f}-"
                         f"{r['pairedRatioMax']:.2f})")
        lines.append(
            f"| {r['mask']} | {r['impl']} | {r['objects']:,} | {r['updateMs']:.1f} | "
            f"{reference:.1f} | {reference / r['updateMs']:.1f}x | " if reference else
            f"| {r['mask']} | {r['impl']} | {r['objects']:,} | {r['updateMs']:.1f} | | | ")
        lines[-1] += (f"{r['engineTotalMs']:.1f} | {r['uploadMs']:.1f} | {kernels:.1f} | {r['downloadMs']:.1f} | "
                      f"{r['labelMapMs']:.1f} | {rest:.1f} | {bound} | {host} | {r['check']} |")
    return "\n".join(lines) + "\n"


def plot(rows, out_dir, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot")
        return
    ours = [r for r in rows if r["impl"] != "itk"]
    itk = {r["mask"]: r["updateMs"] for r in rows if r["impl"] == "itk"}
    names = [f"{r['mask']}\n{r['impl']}" for r in ours]
    stages = [("upload", lambda r: r["uploadMs"]), ("kernels", lambda r: r["labelMs"] + r["featuresMs"]),
              ("download", lambda r: r["downloadMs"]),
              ("rest of engine", lambda r: max(0.0, r["engineTotalMs"] - r["uploadMs"] - r["labelMs"]
                                              - r["featuresMs"] - r["downloadMs"])),
              ("LabelMap", lambda r: r["labelMapMs"]),
              ("rest of Update", lambda r: max(0.0, r["updateMs"] - r["engineTotalMs"] - r["labelMapMs"]))]
    fig, ax = plt.subplots(figsize=(max(8, 1.1 * len(ours)), 5))
    bottom = [0.0] * len(ours)
    for label, value in stages:
        heights = [value(r) for r in ours]
        ax.bar(range(len(ours)), heights, bottom=bottom, label=label)
        bottom = [b + h for b, h in zip(bottom, heights)]
    xs = [i for i, r in enumerate(ours) if r["mask"] in itk]
    ax.scatter(xs, [itk[ours[i]["mask"]] for i in xs], marker="_", s=600, color="black", label="ITK Update()")
    ax.set_yscale("log")
    ax.set_ylabel("ms (log)")
    ax.set_xticks(range(len(ours)))
    ax.set_xticklabels(names, fontsize=7)
    ax.set_title(title or "End to end: Update() of a fresh filter, where the time goes")
    ax.legend(fontsize=7)
    fig.tight_layout()
    path = os.path.join(out_dir, "e2e.png")
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--out", default=".", help="folder for e2e.png")
    parser.add_argument("--table", help="write the Markdown table here too")
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    rows, runs = rows_of(args.files)
    text = table(rows, runs, args.title)
    print(text)
    if args.table:
        with open(args.table, "w") as f:
            f.write(text)
    plot(rows, args.out, args.title)


if __name__ == "__main__":
    main()
