#!/usr/bin/env python3
"""Writes docs/reproduction.md and the plots from the JSON of reproduce-papers.sh.

Reads the results folder (lemaitre2021-table.json, lemaitre2021-sizes.json,
lemaitre2021-16k.json, windisch2023-fig4.json, windisch2023-fig5.json, cabaret2017.json,
asad2019.json, device.txt, reproduce-*.log) and benchmark/published.json, and
writes one Markdown document: each experiment's table with the paper's
published numbers beside ours, and PNG plots next to the JSON (when
matplotlib is installed; the tables need only the standard library). Missing
experiments are reported as not run. Paragraphs the lead must write (why the
ranking or a ratio differs) are marked "TODO(lead)".

Conventions (docs/reproduction.md repeats them):
- kernel time = labelMs + featuresMs (median of the timed runs), the papers'
  processing time; throughput = pixels / time, in Gpix/s;
- "mean" = mean over density of the per-image throughputs (the papers'
  averaging); "summed" = all pixels over the summed time;
- Asad 2019's Ordinary = labelMs of the Late variant (the Late labeling is the
  Ordinary labeling; Late then adds the sequential relabeling's property sums).

usage: reproduce_report.py [--results DIR] [--doc FILE] [--published FILE] [--no-plots]
"""
import argparse
import json
import os
import re
import statistics
from collections import defaultdict

LEMAITRE2021 = ["Naive", "HA", "HA_OTF", "HA_CD", "FLSL", "FLSL_OTF", "FLSL_CD"]
GKEYS = [(1, "g1", "g = 1"), (4, "g4", "g = 4"), (16, "g16", "g = 16"), (0, "all", "all foreground")]
TODO = "> **TODO(lead):**"
# Our reading of each comparison, kept beside the results (rewritten by hand
# after a new run); a section without one gets a TODO(lead) marker instead.
FINDINGS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reproduction-findings.json")
FINDINGS = json.load(open(FINDINGS_FILE)) if os.path.exists(FINDINGS_FILE) else {}


def finding(key, todo_text):
    text = FINDINGS.get(key)
    return f"> **What we read from it:** {text}" if text else f"{TODO} {todo_text}"


def load(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def fmt(v, digits=3):
    if v is None:
        return "–"
    if v == 0:
        return "0"
    return f"{v:.{digits}g}" if abs(v) < 10 ** digits else f"{v:.0f}"


def gpix(size, ms):
    return size * size / (ms * 1e6) if ms > 0 else float("inf")


def mean_and_summed(ms_list, size):
    """(mean of per-image Gpix/s, pixels over summed time Gpix/s, mean ms)."""
    if not ms_list:
        return None, None, None
    mean = statistics.fmean(gpix(size, t) for t in ms_list)
    summed = size * size * len(ms_list) / (sum(ms_list) * 1e6)
    return mean, summed, statistics.fmean(ms_list)


def group(measurements, *keys):
    out = defaultdict(list)
    for m in measurements:
        out[tuple(m[k] for k in keys)].append(m)
    return out


class Plots:
    """matplotlib when present; every plot is optional."""

    def __init__(self, folder, enabled):
        self.folder = folder
        self.plt = None
        self.written = []
        if enabled:
            try:
                import matplotlib
                matplotlib.use("Agg")
                import matplotlib.pyplot as plt
                self.plt = plt
            except ImportError:
                pass

    def save(self, fig, name):
        path = os.path.join(self.folder, name)
        fig.savefig(path, dpi=100)
        self.plt.close(fig)
        self.written.append(path)
        return path


class Doc:
    def __init__(self, path, image_folder):
        self.lines = []
        self.path = path
        self.image_folder = image_folder

    def add(self, *lines):
        self.lines.extend(lines)

    def image(self, path, alt):
        rel = os.path.relpath(path, os.path.dirname(os.path.abspath(self.path)))
        self.add(f"![{alt}]({rel})", "")

    def table(self, header, rows):
        self.add("| " + " | ".join(header) + " |", "|" + " --- |" * len(header))
        for r in rows:
            self.add("| " + " | ".join(str(c) for c in r) + " |")
        self.add("")


def elapsed_per_step(results):
    """{step: (seconds, exit code)} from the '== NAME: rc=.., ..s for this step' lines of reproduce*.log."""
    out = {}
    for name in sorted(os.listdir(results)):
        if not (name.startswith("reproduce") and name.endswith(".log")):
            continue
        for line in open(os.path.join(results, name)):
            m = re.match(r"== (\S+): rc=(\d+), .*?(\d+)s for this step", line)
            if m:
                out[m.group(1)] = (int(m.group(3)), int(m.group(2)))
    return out


# ---------------------------------------------------------------- Lemaitre 2021

def lemaitre2021(doc, plots, results, pub):
    table = load(os.path.join(results, "lemaitre2021-table.json"))
    doc.add("## Lemaitre 2021: the seven strategies (Table 1, Figures 1, 5, 7)", "")
    if not table:
        doc.add("Not run (lemaitre2021-table.json missing).", "")
        return
    ms = table["measurements"]
    size = ms[0]["size"]
    p1 = pub["lemaitre2021_table1"]
    doc.add(f"{size}² uint8 images of the random protocol (d = 0 .. 1 step 0.1 per g, plus the all-foreground "
            f"image), kernel time = labelMs + featuresMs, median of up to {table['reps']} runs after "
            f"{table['warmup']} warm-up (fewer when a run exceeds {table['repBudgetMs']:.0f} ms). "
            f"Published: {p1['source']}, {p1['device']}, {p1['what']}.", "")
    doc.add("Cells: ours as mean over density / pixels over summed time (Gpix/s), then the paper's number in "
            "brackets. The paper averages over density; which of our two averages its numbers match is "
            "discussed in docs/results-history.md (the summed one, for FLSL_CD).", "")
    by = group(ms, "connectivity", "algorithm", "g")
    for conn in ("face", "full"):
        if not any(k[0] == conn for k in by):
            continue
        rows = []
        ranking = {}
        for alg in LEMAITRE2021:
            cells = [alg]
            for g, key, _ in GKEYS:
                pts = [m["kernelMs"] for m in by.get((conn, alg, g), [])]
                mean, summed, _ = mean_and_summed(pts, size)
                paper = p1["rows"].get(alg, [None] * 4)[[1, 4, 16, 0].index(g)]
                cells.append(f"{fmt(mean)} / {fmt(summed)} ({fmt(paper)})" if pts else f"– ({fmt(paper)})")
                if summed:
                    ranking.setdefault(key, []).append((summed if g else mean, alg))
            rows.append(cells)
        doc.add(f"### {size}², {conn} connectivity ({'4' if conn == 'face' else '8'}-connectivity)", "")
        doc.table(["strategy"] + [label for _, _, label in GKEYS], rows)
        doc.add("Ranking, fastest first (ours by pixels over summed time; the paper's by Table 1):", "")
        for g, key, label in GKEYS:
            ours = [a for _, a in sorted(ranking.get(key, []), reverse=True)]
            col = [1, 4, 16, 0].index(g)
            theirs = [a for a, _ in sorted(p1["rows"].items(), key=lambda kv: -kv[1][col])]
            doc.add(f"- {label}: ours {' > '.join(ours)}; paper {' > '.join(theirs)}")
        doc.add("")
    s1 = pub["lemaitre2021_gtc"]
    doc.add(f"Their GTC 2021 talk has other A100 numbers for the same strategies (g = 4: FLSL_CD "
            f"{s1['g4']['rows']['FLSL_CD'][0]}, HA {s1['g4']['rows']['HA'][0]}; all foreground: FLSL_CD "
            f"{s1['all']['rows']['FLSL_CD'][0]}, HA {s1['all']['rows']['HA'][0]} Gpix/s) and V100 numbers "
            f"(g = 4: FLSL_CD {s1['g4']['rows']['FLSL_CD'][1]}); see benchmark/published.json.", "")
    doc.add(finding("lemaitre2021-table", "compare the rankings and the ratios ours / published above (H100 vs A100: about 1.6x "
            "the memory bandwidth); say where and why a strategy's rank differs (e.g. OTF moving our "
            "216-byte records)."), "")

    # Figure 1 statements: peak time over the time before the percolation threshold.
    doc.add("### Figure 1: the peak at the percolation threshold", "")
    doc.add("Time before the threshold: d = 0.5 with face connectivity (percolation at 0.6), d = 0.3 with "
            "full (0.4).", "")
    rows = []
    for conn in ("face", "full"):
        before_d = 0.5 if conn == "face" else 0.3
        for alg in ("Naive", "HA", "FLSL_CD"):
            pts = sorted((round(m["density"], 2), m["kernelMs"]) for m in by.get((conn, alg, 1), []))
            if not pts:
                continue
            before = dict(pts).get(before_d)
            peak_d, peak_t = max(pts, key=lambda p: p[1])
            rows.append([conn, alg, f"{fmt(before)} at d = {before_d:g}", f"{fmt(peak_t)} at d = {peak_d:g}",
                         fmt(peak_t / before) if before else "–", fmt(dict(pts)[1.0] / before) if before and 1.0 in dict(pts) else "–"])
    doc.table(["connectivity", "strategy (g = 1)", "ms before the threshold", "peak ms", "peak / before",
               "d = 1 / before"], rows)
    doc.add("Paper (A100, g = 1): naive 19x slower at d = 100 % than before the threshold; HA's peak at "
            "d = 65 % is 8x the time before it.", "")

    # Figure 5: atomic updates and estimated conflicts at g = 1.
    counted = [m for m in ms if m["atomicFeatureUpdates"] >= 0 and m["g"] == 1]
    if counted:
        doc.add("### Figure 5: atomic feature updates and estimated conflicts, g = 1", "")
        doc.add("From the instrumented warm-up run (Lemaitre 2021 section 4.1: conflicts = sum U² / sum U). "
                "The paper's figure has no published numbers.", "")
        rows = []
        cby = group(counted, "connectivity", "algorithm")
        dens = [0.2, 0.4, 0.6, 0.8, 1.0]
        for (conn, alg), pts in sorted(cby.items(), key=lambda kv: (kv[0][0], LEMAITRE2021.index(kv[0][1]))):
            d2 = {round(m["density"], 2): m for m in pts}
            rows.append([conn, alg] + [f"{fmt(d2[d]['atomicFeatureUpdates'])} / {fmt(d2[d]['estimatedConflicts'])}"
                                       if d in d2 else "–" for d in dens])
        doc.table(["connectivity", "strategy"] + [f"d = {d:g}: updates / conflicts" for d in dens], rows)
        if plots.plt:
            plt = plots.plt
            fig, axes = plt.subplots(1, 2, figsize=(13, 5))
            for ax, what in zip(axes, ("atomicFeatureUpdates", "estimatedConflicts")):
                for (conn, alg), pts in sorted(cby.items()):
                    if conn != "face":
                        continue
                    pts = sorted(pts, key=lambda m: m["density"])
                    ax.plot([m["density"] for m in pts], [max(m[what], 0.5) for m in pts], marker="o", label=alg)
                ax.set_yscale("log")
                ax.set_xlabel("density")
                ax.set_title(what + f" ({size}², g = 1, face)")
                ax.grid(True, which="both", alpha=0.3)
            axes[0].legend(fontsize=8)
            fig.tight_layout()
            doc.image(plots.save(fig, "lemaitre2021-updates.png"), "atomic updates and conflicts")

    if plots.plt:
        plt = plots.plt
        for conn in ("face", "full"):
            if not any(k[0] == conn for k in by):
                continue
            fig, axes = plt.subplots(1, 3, figsize=(17, 5))
            for ax, (g, key, label) in zip(axes, GKEYS[:3]):
                for alg in LEMAITRE2021:
                    pts = sorted((m["density"], m["kernelMs"]) for m in by.get((conn, alg, g), []))
                    if pts:
                        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3, label=alg)
                ax.axvline(0.6 if conn == "face" else 0.4, color="gray", linestyle=":")
                ax.set_yscale("log")
                ax.set_xlabel("density")
                ax.set_title(f"{label}, {conn}")
                ax.grid(True, which="both", alpha=0.3)
            axes[0].set_ylabel(f"kernel time per {size}² image (ms)")
            axes[0].legend(fontsize=8)
            fig.suptitle("Lemaitre 2021 Fig. 1 / Fig. 7 left: time against density (dotted: percolation threshold)")
            fig.tight_layout()
            doc.image(plots.save(fig, f"lemaitre2021-density-{conn}.png"), f"time against density, {conn}")

    # Figure 7 right: throughput against size.
    sweep = []
    for name in ("lemaitre2021-sizes.json", "lemaitre2021-16k.json"):
        d = load(os.path.join(results, name))
        if d:
            sweep += d["measurements"]
    sweep_dens = {0.0, 0.2, 0.4, 0.6, 0.8, 1.0}
    # The 8192 point: the table's images at the sweep's densities.
    sweep += [m for m in ms if m["allForeground"] or round(m["density"], 2) in sweep_dens]
    doc.add("### Figure 7 right: throughput against image size", "")
    if not sweep:
        doc.add("Not run.", "")
        return
    doc.add("Mean over d = 0, 0.2, .., 1 of the per-image kernel throughput (Gpix/s), per size; the "
            f"{size}² point uses the table run's images at those densities; '–' = not run (reproduce-papers.sh "
            "runs only HA and FLSL_CD with full connectivity at 16384², for time).", "")
    sby = group(sweep, "connectivity", "algorithm", "g", "size")
    sizes = sorted({m["size"] for m in sweep})
    for conn in ("face", "full"):
        rows = []
        for alg in LEMAITRE2021:
            for g, key, label in GKEYS:
                cells = []
                for n in sizes:
                    pts = [m["kernelMs"] for m in sby.get((conn, alg, g, n), [])]
                    cells.append(fmt(mean_and_summed(pts, n)[0]) if pts else "–")
                if any(c != "–" for c in cells):
                    rows.append([alg, label] + cells)
        if rows:
            doc.add(f"{conn} connectivity:", "")
            doc.table(["strategy", "g"] + [f"{n}²" for n in sizes], rows)
        if plots.plt and rows:
            plt = plots.plt
            fig, axes = plt.subplots(1, 4, figsize=(20, 5))
            for ax, (g, key, label) in zip(axes, GKEYS):
                for alg in LEMAITRE2021:
                    pts = [(n, mean_and_summed([m["kernelMs"] for m in sby[(conn, alg, g, n)]], n)[0])
                           for n in sizes if (conn, alg, g, n) in sby]
                    if pts:
                        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=alg)
                ax.set_xscale("log", base=2)
                ax.set_yscale("log")
                ax.set_xlabel("image side (pixels)")
                ax.set_title(f"{label}, {conn}")
                ax.grid(True, which="both", alpha=0.3)
            axes[0].set_ylabel("mean kernel throughput (Gpix/s)")
            axes[0].legend(fontsize=8)
            fig.suptitle("Lemaitre 2021 Fig. 7 right: average throughput against image size")
            fig.tight_layout()
            doc.image(plots.save(fig, f"lemaitre2021-sizes-{conn}.png"), f"throughput against size, {conn}")
    doc.add(finding("lemaitre2021-sizes", "the paper: FLSL+CD is the fastest at every size; the ranking does not depend on the "
            "size except for HA+OTF; small images lose parallelism. Say whether ours agrees."), "")


# ---------------------------------------------------------------- Cabaret 2017

def cabaret2017(doc, plots, results, pub):
    d = load(os.path.join(results, "cabaret2017.json"))
    doc.add("## Cabaret 2017: DLP-GPU at 2048² (Table 2)", "")
    if not d:
        doc.add("Not run (cabaret2017.json missing).", "")
        return
    p3 = pub["cabaret2017_table2"]
    ms = d["measurements"]
    size = ms[0]["size"]
    doc.add(f"Mean over d = 0 .. 1 step 0.1 of the labeling time (labelMs: the paper times labeling only) and "
            f"Tp = pixels / mean time, as Table 2 computes it ({p3['rows']['GTX 980 Ti']['gpix'][0]} = 2048² / "
            f"{p3['rows']['GTX 980 Ti']['ms'][0]} ms). Our label+features time beside it. The paper's DLP is "
            "8-connected; face is shown too. Default = FLSL_CD for reference.", "")
    by = group(ms, "connectivity", "algorithm", "g")
    rows = []
    for conn in ("full", "face"):
        for alg in ("DLP", "Default"):
            cells = [conn, alg]
            for g in (1, 4, 16):
                pts = by.get((conn, alg, g), [])
                if not pts:
                    cells.append("–")
                    continue
                lab = statistics.fmean(m["labelMs"] for m in pts)
                ker = statistics.fmean(m["kernelMs"] for m in pts)
                cells.append(f"{fmt(lab)} ms, {fmt(gpix(size, lab))} Gp/s (with features {fmt(ker)} ms)")
            rows.append(cells)
    for gpu, v in p3["rows"].items():
        rows.append(["published", gpu] + [f"{v['ms'][i]} ms, {v['gpix'][i]} Gp/s" for i in range(3)])
    doc.table(["connectivity", "labeling", "g = 1", "g = 4", "g = 16"], rows)
    doc.add(finding("cabaret2017", "ratio to the GTX 980 Ti (336 GB/s) against the H100's ~3 TB/s; whether DLP's g = 16 / g = 1 "
            "speed-up (paper: 1.35x on the 980 Ti) holds."), "")
    if plots.plt:
        plt = plots.plt
        fig, axes = plt.subplots(1, 3, figsize=(16, 4.5))
        for ax, g in zip(axes, (1, 4, 16)):
            for conn in ("full", "face"):
                for alg in ("DLP", "Default"):
                    pts = sorted((m["density"], m["labelMs"]) for m in by.get((conn, alg, g), []))
                    if pts:
                        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3,
                                label=f"{alg} labeling, {conn}", linestyle="-" if alg == "DLP" else "--")
            ax.set_xlabel("density")
            ax.set_title(f"g = {g}, {size}²")
            ax.grid(True, alpha=0.3)
        axes[0].set_ylabel("labeling time (ms)")
        axes[0].legend(fontsize=8)
        fig.tight_layout()
        doc.image(plots.save(fig, "cabaret2017-dlp.png"), "DLP labeling time")


# ---------------------------------------------------------------- Windisch 2023

def windisch2023(doc, plots, results, pub):
    f4 = load(os.path.join(results, "windisch2023-fig4.json"))
    f5 = load(os.path.join(results, "windisch2023-fig5.json"))
    p2 = pub["windisch2023"]
    doc.add("## Windisch 2023: feature compaction and the copy to the host (Figures 4, 5)", "")
    if not f4 and not f5:
        doc.add("Not run (windisch2023-fig4.json, windisch2023-fig5.json missing).", "")
        return
    doc.add("HA labeling (Windisch 2023's HA4 baseline), 4-connectivity, feature table only, with each compaction: "
            "None = the sparse per-root table copied whole (HA4's full arrays), TreeMerge = Windisch 2023's tree "
            "merge kernel (TMK), Scan = ours. Time = labelMs + featuresMs + downloadMs (the paper's total: "
            "kernels and the device-to-host cudaMemcpy; the image is already on the device, so the upload is "
            "left out); bytes = Result::bytesCopiedToHost.", "")
    doc.add(f"Published: {p2['numbers']} ({p2['source']}, {p2['device']}). What its text states:", "")
    doc.add(*[f"- {s}" for s in p2["statements"]], "")
    modes = ["None", "TreeMerge", "Scan"]

    def total(m):
        return m["labelMs"] + m["featuresMs"] + m["downloadMs"]

    if f4:
        ms = f4["measurements"]
        by = group(ms, "size", "g", "compaction")
        rows = []
        for (n, g) in sorted({(m["size"], m["g"]) for m in ms}):
            cells = [f"{n}²", g]
            for mode in modes:
                pts = by.get((n, g, mode), [])
                if pts:
                    cells.append(f"{fmt(statistics.fmean(total(m) for m in pts))} ms, "
                                 f"{fmt(statistics.fmean(m['downloadMs'] for m in pts))} ms copy, "
                                 f"{fmt(statistics.fmean(m['bytesCopiedToHost'] for m in pts) / 1e6)} MB")
                else:
                    cells.append("–")
            rows.append(cells)
        doc.add("### Figure 4: mean over d = 0 .. 1 (total time, copy time, bytes copied)", "")
        doc.table(["size", "g"] + modes, rows)
        if plots.plt:
            plt = plots.plt
            sizes = sorted({m["size"] for m in ms})
            gs = sorted({m["g"] for m in ms})
            fig, axes = plt.subplots(len(sizes), len(gs), figsize=(5 * len(gs), 4 * len(sizes)), squeeze=False)
            for i, n in enumerate(sizes):
                for j, g in enumerate(gs):
                    ax = axes[i][j]
                    for k, mode in enumerate(modes):
                        pts = sorted(by.get((n, g, mode), []), key=lambda m: m["density"])
                        if not pts:
                            continue
                        color = f"C{k}"
                        ax.plot([m["density"] for m in pts], [total(m) for m in pts], color=color, marker="o",
                                markersize=3, label=f"{mode} total")
                        ax.plot([m["density"] for m in pts], [m["downloadMs"] for m in pts], color=color,
                                linestyle="--", label=f"{mode} copy")
                    ax.set_title(f"{n}², g = {g}")
                    ax.set_xlabel("density")
                    ax.set_ylabel("ms")
                    ax.grid(True, alpha=0.3)
            axes[0][0].legend(fontsize=7)
            fig.suptitle("Windisch 2023 Fig. 4: total time (solid) and copy time (dashed) against density")
            fig.tight_layout()
            doc.image(plots.save(fig, "windisch2023-fig4.png"), "compaction against density")
    if f5:
        ms = f5["measurements"]
        by = group(ms, "size", "compaction")
        sizes = sorted({m["size"] for m in ms})
        rows = []
        for mode in modes:
            cells = [mode]
            for n in sizes:
                pts = by.get((n, mode), [])
                cells.append(f"{fmt(statistics.fmean(total(m) for m in pts))} ms, "
                             f"{fmt(statistics.fmean(m['bytesCopiedToHost'] for m in pts) / 1e6)} MB" if pts else "–")
            rows.append(cells)
        doc.add("### Figure 5: mean total time and bytes over d = 0.1 .. 0.9, g = 1", "")
        doc.table(["compaction"] + [f"{n}²" for n in sizes], rows)
        if plots.plt:
            plt = plots.plt
            fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
            for k, mode in enumerate(modes):
                pts = [(n, by[(n, mode)]) for n in sizes if (n, mode) in by]
                if not pts:
                    continue
                axes[0].plot([p[0] for p in pts], [statistics.fmean(total(m) for m in p[1]) for p in pts],
                             marker="o", label=mode)
                axes[1].plot([p[0] for p in pts],
                             [statistics.fmean(max(m["bytesCopiedToHost"], 1) for m in p[1]) for p in pts],
                             marker="o", label=mode)
            for ax, t in zip(axes, ("mean total time (ms)", "mean bytes copied to the host")):
                ax.set_xscale("log", base=2)
                ax.set_yscale("log")
                ax.set_xlabel("image side (pixels)")
                ax.set_ylabel(t)
                ax.grid(True, which="both", alpha=0.3)
                ax.legend(fontsize=8)
            fig.suptitle("Windisch 2023 Fig. 5: against image size (g = 1, d = 0.1 .. 0.9)")
            fig.tight_layout()
            doc.image(plots.save(fig, "windisch2023-fig5.png"), "compaction against size")
    doc.add(finding("windisch2023", "compare with the paper's qualitative findings listed above (TMK vs full copy by size; "
            "where Scan stands)."), "")


# ---------------------------------------------------------------- Asad 2019

def asad2019(doc, plots, results, pub):
    d = load(os.path.join(results, "asad2019.json"))
    doc.add("## Asad 2019: LE and TM on the synthetic families (Table III)", "")
    if not d:
        doc.add("Not run (asad2019.json missing).", "")
        return
    p4 = pub["asad2019_table3"]
    ms = d["measurements"]
    size = ms[0]["size"]
    doc.add(f"{size}², 8-connectivity, the six families of benchmark/PatternImages.h (generated as Asad 2019 "
            "section IV defines them; the header lists the choices its text leaves open). Times are kernel "
            f"times (labelMs + featuresMs), median of up to {d['reps']} runs after {d['warmup']} warm-up; "
            "per family the mean over its images and the relative standard deviation (population) across "
            "them. **Ordinary = labelMs of the Late variant**: our Late labeling is the Ordinary labeling "
            "(the paper chains the sequential relabeling and the property sums after Ordinary LE/TM), so its "
            "labeling stage is the Ordinary time. Early / Late = labelMs + featuresMs of LE_Early / TM_Early "
            "and LE_Late / TM_Late.", "")
    doc.add(f"Published: {p4['source']}, {p4['device']}, each family member timed 100 times (random "
            "families: 100 draws per probability). Ours: every member once, random families with "
            f"{max(m['instance'] for m in ms) + 1} draws per probability.", "")
    bad = [m for m in ms if not m["check"]]
    doc.add(f"Component counts checked against the generator: {len(ms) - len(bad)} of {len(ms)} runs agree"
            + (f"; **{len(bad)} differ** (first: {bad[0]['member']} {bad[0]['algorithm']}: "
               f"{bad[0]['components']} vs {bad[0]['expectedComponents']})" if bad else "") + ".", "")

    def value(m, column):
        kind, alg = column.split()
        if kind == "Ordinary":
            return m["labelMs"] if m["algorithm"] == f"{alg}_Late" else None
        return m["kernelMs"] if m["algorithm"] == f"{alg}_{kind}" else None

    columns = ["Ordinary LE", "Ordinary TM", "Early LE", "Early TM", "Late LE", "Late TM"]
    families = ["Leveling", "RandomInstancing", "RandomMerging", "Scaling", "Spiral", "Subdivision"]
    rows = []
    for fam in families + ["Total"]:
        fm = [m for m in ms if fam == "Total" or m["family"] == fam]
        if not fm:
            continue
        cells = [fam]
        for i, col in enumerate(columns):
            vals = [v for v in (value(m, col) for m in fm) if v is not None]
            paper = p4["rows"][fam]
            pcell = f"({paper['ms'][i]} ± {paper['rsd'][i]} %)"
            if vals:
                mean = statistics.fmean(vals)
                rsd = statistics.pstdev(vals) / mean * 100 if mean > 0 else 0
                cells.append(f"{fmt(mean)} ± {rsd:.0f} % {pcell}")
            else:
                cells.append(f"– {pcell}")
        images = len({(m["member"], m["instance"]) for m in fm})
        cells.append(f"{images} ({p4['rows'][fam]['images']})")
        rows.append(cells)
    doc.add("Cells: our mean ms ± relative std, the paper's (GTX 1080) in brackets; last column: our images "
            "(the paper's image count).", "")
    doc.table(["family"] + columns + ["images"], rows)
    doc.add(finding("asad2019", "the paper's findings to compare: TM steadier than LE (Ordinary TM ± 1-11 % except "
            "Spiral); Late faster than Early on average but with more variance; Spiral the largest deviation "
            "in every column; LE sensitive to the level (Leveling ± 34 %)."), "")
    if plots.plt:
        plt = plots.plt
        fig, axes = plt.subplots(2, 3, figsize=(18, 9))
        for ax, fam in zip(axes.flat, families):
            fm = [m for m in ms if m["family"] == fam]
            for k, col in enumerate(columns):
                pts = defaultdict(list)
                for m in fm:
                    v = value(m, col)
                    if v is not None:
                        pts[m["parameter"]].append(v)
                if pts:
                    xs = sorted(pts)
                    ax.plot(xs, [statistics.fmean(pts[x]) for x in xs], marker="o", markersize=3, label=col,
                            color=f"C{k // 2}", linestyle=["-", "--"][k % 2])
            ax.set_title(fam)
            ax.set_xlabel({"Leveling": "level l", "Scaling": "lambda", "Subdivision": "subdivisions s",
                           "RandomInstancing": "p (instance)", "RandomMerging": "p (merge)",
                           "Spiral": "side / image side"}[fam])
            ax.set_ylabel("ms")
            ax.grid(True, alpha=0.3)
        axes[0][0].legend(fontsize=8)
        fig.suptitle(f"Asad 2019: kernel time per family member, {size}², 8-connectivity")
        fig.tight_layout()
        doc.image(plots.save(fig, "asad2019-families.png"), "LE and TM per family")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", default="benchmark/results/reproduction")
    parser.add_argument("--doc", default="docs/reproduction.md")
    parser.add_argument("--published", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                            "published.json"))
    parser.add_argument("--images", default="docs/images/reproduction", help="where the PNG plots go")
    parser.add_argument("--no-plots", action="store_true")
    args = parser.parse_args()
    pub = load(args.published)
    os.makedirs(args.images, exist_ok=True)
    plots = Plots(args.images, not args.no_plots)
    doc = Doc(args.doc, args.results)
    device = ""
    path = os.path.join(args.results, "device.txt")
    if os.path.exists(path):
        device = open(path).read().strip()
    doc.add("# Reproduction of the papers' experiments", "",
            "Written by `benchmark/reproduce_report.py` from the JSON of `benchmark/reproduce-papers.sh` "
            f"(results: `{os.path.relpath(args.results, os.path.dirname(os.path.abspath(args.doc)))}`; published "
            "numbers: `benchmark/published.json`). How to rerun: benchmark/README.md, section "
            "\"Reproducing the papers\". The explanations after each comparison come from "
            "`benchmark/reproduction-findings.json`.", "")
    doc.add("Machine and run:", "", "```", device or "device.txt missing", "```", "")
    steps = elapsed_per_step(args.results)
    if steps:
        doc.table(["experiment", "wall time (s)", "exit code"], [[k, v[0], v[1]] for k, v in steps.items()])
    doc.add("Conventions: kernel time = labelMs + featuresMs of the engine's StageTimes (CUDA events), the "
            "median of the timed runs; Gpix/s = pixels / time; \"mean\" = mean over density of per-image "
            "throughputs (the papers' averaging), \"summed\" = all pixels over the summed time. The papers "
            "take the minimum of 20 runs (Lemaitre 2021) or means over 100 executions (Asad 2019); we take medians "
            "of at most 3 to fit one device command.", "")
    if plots.plt is None and not args.no_plots:
        doc.add("(matplotlib was not available: no plots; rerun this script where it is.)", "")
    lemaitre2021(doc, plots, args.results, pub)
    cabaret2017(doc, plots, args.results, pub)
    windisch2023(doc, plots, args.results, pub)
    asad2019(doc, plots, args.results, pub)
    os.makedirs(os.path.dirname(os.path.abspath(args.doc)), exist_ok=True)
    with open(args.doc, "w") as f:
        f.write("\n".join(doc.lines).rstrip() + "\n")
    print("wrote", args.doc)
    for p in plots.written:
        print("wrote", p)


if __name__ == "__main__":
    main()
