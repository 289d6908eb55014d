#!/usr/bin/env python3
"""Interleaved A/B runs of cca_benchmark, for the device calls recorded in
benchmark/results: each image set is run by every variant in the order
given (for example "a b b a", so that drift in the GPU's clocks or the
host's state falls on both sides), each run's log and JSON go to LOGS, a
line a run is printed as it ends, and then every run is compared with the
base variant's first: the same components and runs on every image, and the
summed kernel, download and total times.

  python3 benchmark/ab_compare.py --logs $OUT/logs \\
      --variant a="/tmp/b/main/cca_benchmark" \\
      --variant p="/tmp/b/patched/cca_benchmark" \\
      --common "--labels-on-device --warmup 1 --reps 3 --outputs all" \\
      --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \\
      --order "a p p a"

The base is the first variant unless --base names another. With
--per-image, a table follows: for each set, its runs in run order, then a
line an image with its connectivity and density, its components per run (from the first run
that has the image) and each run's kernel ms, "-" where a run failed or left
no result. The exit status is 1 when a run failed or found other objects
than the base.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import time


def parse_pairs(values, what):
    pairs = {}
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name:
            sys.exit(f"--{what} takes NAME=VALUE, got {value!r}")
        if name in pairs:
            sys.exit(f"--{what} {name} given twice")
        pairs[name] = rest
    return pairs


def summary_line(log_path):
    """The benchmark's '==' line, shortened to summed (mean) and memory."""
    try:
        with open(log_path) as log:
            lines = [line.strip() for line in log if line.startswith("==")]
    except OSError:
        return "no log"
    out = []
    for line in lines:
        # "== Default full(8) g4: kernel 109.10 Gpix/s (...; 167.60 mean
        #  over density), end-to-end ..., device memory <= 5.61 bytes/pixel"
        words = line.replace("(", " ").replace(";", " ").replace(",", " ").split()
        try:
            summed = words[words.index("kernel") + 1]
            mean = words[words.index("mean") - 1]
            memory = words[words.index("<=") + 1]
            out.append(f"{summed} ({mean}) {memory} B/px")
        except (ValueError, IndexError):
            out.append(line)
    return " | ".join(out) if out else "no summary"


def load(path):
    try:
        with open(path) as f:
            return json.load(f)["measurements"]
    except (OSError, ValueError, KeyError):
        return None


def totals(measurements):
    pixels = sum(m["kernelMs"] * m["kernelGpixPerS"] * 1e6 for m in measurements)
    kernel = sum(m["kernelMs"] for m in measurements)
    return {
        "kernel": kernel,
        "download": sum(m["downloadMs"] for m in measurements),
        "total": sum(m["totalMs"] for m in measurements),
        "summed": pixels / kernel / 1e6 if kernel > 0 else 0.0,
    }


def per_image_lines(set_name, set_runs, failed_runs):
    """The --per-image table of one set: a header naming the runs in run
    order, then a line an image: connectivity, density, components per run and each run's
    kernel ms ("-" for a run that failed, left no result or has fewer images)."""
    labels = [run[len(set_name) + 1:] for run, _, _ in set_runs]
    results = [None if run in failed_runs else load(path) for run, _, path in set_runs]
    lines = [f"{set_name}: {' '.join(labels)}"]
    for i in range(max((len(r) for r in results if r), default=0)):
        cells = [r[i] if r and i < len(r) else None for r in results]
        image = next(m for m in cells if m is not None)
        # Labels only counts no runs (the JSON's -1): "-"; no runs at all: 0.
        if image["runs"] < 0:
            share = "-"
        else:
            share = f"{image['components'] / image['runs'] if image['runs'] else 0:.3f}"
        kernel = " ".join("-" if m is None else f"{m['kernelMs']:.3f}" for m in cells)
        lines.append(f"  {image['connectivity']} d={image['density']:.1f} components/run {share}  kernel ms  {kernel}")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--logs", required=True)
    parser.add_argument("--variant", action="append", default=[], help="NAME=command prefix")
    parser.add_argument("--set", action="append", default=[], help="NAME=benchmark arguments")
    parser.add_argument("--order", required=True, help="variant names, space-separated, e.g. 'a b b a'")
    parser.add_argument("--common", default="", help="arguments every run takes")
    parser.add_argument("--base", help="the variant the others are compared with (default: the first)")
    parser.add_argument("--timeout", type=float, default=80)
    parser.add_argument("--per-image", action="store_true", help="then each image's density, components and kernel ms")
    args = parser.parse_args()

    variants = parse_pairs(args.variant, "variant")
    sets = parse_pairs(args.set, "set")
    order = args.order.split()
    if not variants or not sets or not order:
        sys.exit("give at least one --variant, one --set and an --order")
    unknown = [name for name in order if name not in variants]
    if unknown:
        sys.exit(f"--order names unknown variants: {unknown}")
    base = args.base or next(iter(variants))
    if base not in order:
        sys.exit(f"the base variant {base} is not in --order")
    os.makedirs(args.logs, exist_ok=True)

    start = time.monotonic()
    failed = False
    failed_runs = set()
    runs = {}  # set name -> [(run name, json path)]
    for set_name, set_args in sets.items():
        seen = {}
        for variant in order:
            seen[variant] = seen.get(variant, 0) + 1
            run = f"{set_name}-{variant}{seen[variant]}"
            json_path = os.path.join(args.logs, run + ".json")
            log_path = os.path.join(args.logs, run + ".log")
            command = shlex.split(variants[variant]) + shlex.split(args.common) + shlex.split(set_args)
            command += ["--json", json_path]
            with open(log_path, "w") as log:
                log.write(shlex.join(command) + "\n")
                log.flush()
                try:
                    rc = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, timeout=args.timeout).returncode
                except subprocess.TimeoutExpired:
                    rc = "timeout"
            failed |= rc != 0
            if rc != 0:
                failed_runs.add(run)
            print(f"{run} rc={rc} at {time.monotonic() - start:.0f} s: {summary_line(log_path)}", flush=True)
            runs.setdefault(set_name, []).append((run, variant, json_path))

    print("\nagainst the first run of", base, "(summed kernel Gpix/s; kernel, download, total ms summed over the set)")
    for set_name, set_runs in runs.items():
        reference = next((load(path) for run, variant, path in set_runs if variant == base), None)
        if reference is None:
            print(f"{set_name}: no result from {base}")
            failed = True
            continue
        ref = totals(reference)
        objects = [(m["components"], m["runs"]) for m in reference]
        for run, variant, path in set_runs:
            measured = load(path)
            if measured is None:
                print(f"{run}: no result")
                continue
            same = [(m["components"], m["runs"]) for m in measured] == objects
            failed |= not same
            t = totals(measured)
            print(
                f"{run}: {'same objects' if same else 'OBJECTS DIFFER'}; summed {ref['summed']:.2f} -> {t['summed']:.2f}; "
                f"kernel {ref['kernel']:.2f} -> {t['kernel']:.2f}, download {ref['download']:.2f} -> "
                f"{t['download']:.2f}, total {ref['total']:.2f} -> {t['total']:.2f}"
            )
    if args.per_image:
        print("\nper image (density, components/run of the first run with the image, each run's kernel ms)")
        for set_name, set_runs in runs.items():
            print("\n".join(per_image_lines(set_name, set_runs, failed_runs)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
