#!/usr/bin/env python3
"""The end-to-end results of cca_e2e_benchmark (issue 10) as a Markdown table
and a bar chart: per mask, Update() of our filter (CUDA) and of ITK's
BinaryImageToShapeLabelMapFilter, the ratio, and where our time goes (engine:
upload, kernels, download; the LabelMap; the rest of Update), with the engine
alone against its bound (bytes / measured pinned bandwidth + kernel time),
then with the mask's read as the upload's floor: the best engine against a
bound measured apart, and each repetition against the read measured right
after it (the best, the median and the largest of those ratios).

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
                 "| LabelMap | rest | engine alone / bound | with the mask's read: apart; paired best, median, largest "
                 "| check |")
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
                host += (f"; {r['pairedRatioMin']:.2f}, {r['pairedRatioMedian']:.2f}, "
                         f"{r['pairedRatioMax']:.2f}")
        lines.append(
            f"| {r['mask']} | {r['impl']} | {r['objects']:,} | {r['updateMs']:.1f} | "
            f"{reference:.1f} | {reference / r['updateMs']:.1f}x | " if reference else
            f"| {r['mask']} | {r['impl']} | {r['objects']:,} | {r['updateMs']:.1f} | | | ")
        lines[-1] += (f"{r['engineTotalMs']:.1f} | {r['uploadMs']:.1f} | {kernels:.1f} | {r['downloadMs']:.1f} | "
                      f"{r['labelMapMs']:.1f} | {rest:.1f} | {bound} | {host} | {r['check']} |")
    return "\n".join(lines) + "\n"


def stage_times(r):
    """Our Update() split into its stages, ms; the label image's download
    runs beside the LabelMap's making, so the parts are clipped to add up
    to Update()."""
    kernels = r["labelMs"] + r["featuresMs"]
    engine_rest = max(0.0, r["engineTotalMs"] - r["uploadMs"] - kernels - r["downloadMs"])
    parts = [("upload", r["uploadMs"]), ("kernels", kernels), ("download", r["downloadMs"]),
             ("rest of engine", engine_rest), ("LabelMap", r["labelMapMs"])]
    left, clipped = r["updateMs"], []
    for name, value in parts:
        value = min(max(0.0, value), left)
        clipped.append((name, value))
        left -= value
    clipped.append(("rest of Update", left))
    return clipped


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
    names = [r["mask"] if r["impl"] == "ours-cuda" else f"{r['mask']}\n{r['impl']}" for r in ours]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(max(8, 1.2 * len(ours)), 8))
    # Update() wall time, ours and ITK's, on a log axis (they differ 50-250x).
    xs = range(len(ours))
    top.bar([x - 0.2 for x in xs], [r["updateMs"] for r in ours], width=0.4, label="ours (CUDA)")
    top.bar([x + 0.2 for x in xs], [itk.get(r["mask"], 0) for r in ours], width=0.4, label="ITK 5.2.1")
    for x, r in zip(xs, ours):
        if r["mask"] in itk:
            top.annotate(f"{itk[r['mask']] / r['updateMs']:.0f}x", (x, itk[r["mask"]]), ha="center",
                         va="bottom", fontsize=8)
    top.set_yscale("log")
    top.set_ylabel("Update() ms (log)")
    top.set_xticks(list(xs))
    top.set_xticklabels(names, fontsize=7)
    top.legend(fontsize=8)
    top.set_title(title or "End to end: Update() of a fresh filter against ITK's")
    # Where our time goes, as shares of Update() (a linear axis: shares add up).
    stages = [stage_times(r) for r in ours]
    shares_bottom = [0.0] * len(ours)
    for k, (label, _) in enumerate(stages[0]):
        heights = [100.0 * parts[k][1] / r["updateMs"] for parts, r in zip(stages, ours)]
        bottom.bar(list(xs), heights, bottom=shares_bottom, label=label)
        shares_bottom = [b + h for b, h in zip(shares_bottom, heights)]
    bottom.set_ylabel("% of our Update()")
    bottom.set_ylim(0, 100)
    bottom.set_xticks(list(xs))
    bottom.set_xticklabels(names, fontsize=7)
    bottom.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    path = os.path.join(out_dir, "e2e.png")
    fig.savefig(path, dpi=110)
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
