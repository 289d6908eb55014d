#!/usr/bin/env python3
"""Times cudalabelstatistics against the Python peers on the same masks.

    python benchmark/python_benchmark.py                  # default masks, all peers found
    python benchmark/python_benchmark.py --quick          # small masks (a smoke test)
    python benchmark/python_benchmark.py --json out.json  # also write the results

Peers (each skipped, with a line saying so, when its package is missing):
- ours: `label_shape_statistics` on the CUDA backend from a CuPy array or a
  PyTorch tensor already on the GPU (no upload), from NumPy (upload
  included), and on the CPU backend;
- SimpleITK: `ConnectedComponent` + `LabelShapeStatisticsImageFilter`
  (perimeter on, as ours), the attributes we return;
- scikit-image: `measure.label` + `regionprops_table` (label, area, centroid,
  bbox, and perimeter in 2D): fewer attributes than ours;
- CuPy: `cupyx.scipy.ndimage.label` + `bincount` (pixel counts and centroid
  sums, no bounding box or moments): labels and 3 features.
Every time is the median wall time of --repeat runs (fewer once they took
--budget seconds, or one when the warm-up alone took longer) after one
warm-up run,
including the transfer of the results to host NumPy arrays and, on the GPU, a
device synchronization.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import statistics
import sys
import time

import numpy as np


def random_blocks(shape, density, block, seed):
    """The project's random mask: one draw per block x block (x block) cell.
    The cells are broadcast, not repeated axis by axis, so a gigavoxel mask
    is made in one pass without full-size intermediates."""
    rng = np.random.default_rng(seed)
    coarse = rng.random(tuple(-(-s // block) for s in shape)) < density
    cells = coarse.reshape(tuple(d for n in coarse.shape for d in (n, 1)))
    full = np.broadcast_to(cells, tuple(d for n in coarse.shape for d in (n, block)))
    mask = full.reshape(tuple(n * block for n in coarse.shape))
    return np.ascontiguousarray(mask[tuple(slice(0, s) for s in shape)], dtype=np.uint8)


def balls(shape, count, seed):
    """A CT-like mask: `count` balls of random radii."""
    rng = np.random.default_rng(seed)
    mask = np.zeros(shape, np.uint8)
    for _ in range(count):
        radius = rng.uniform(2, 10)
        centre = rng.uniform(0, np.array(shape))
        lo = np.maximum(0, np.floor(centre - radius)).astype(int)
        hi = np.minimum(np.array(shape), np.ceil(centre + radius + 1)).astype(int)
        grid = np.ogrid[tuple(slice(a, b) for a, b in zip(lo, hi))]
        inside = sum((g - c) ** 2 for g, c in zip(grid, centre)) <= radius**2
        mask[tuple(slice(a, b) for a, b in zip(lo, hi))] |= inside.astype(np.uint8)
    return mask


def masks(quick):
    if quick:
        return {"2D 512^2 random d=0.5 g=4": random_blocks((512, 512), 0.5, 4, 1),
                "3D 64^3 random d=0.3 g=2": random_blocks((64, 64, 64), 0.3, 2, 2)}
    return {
        "2D 2048^2 random d=0.5 g=1": random_blocks((2048, 2048), 0.5, 1, 1),
        "2D 4096^2 random d=0.5 g=16": random_blocks((4096, 4096), 0.5, 16, 2),
        "3D 256^3 random d=0.3 g=4": random_blocks((256, 256, 256), 0.3, 4, 3),
        "3D 512x512x400 3000 balls": balls((400, 512, 512), 3000, 4),
    }


def optional(name):
    try:
        return importlib.import_module(name)
    except Exception as error:  # not installed, or no GPU behind it
        return error


def median_seconds(function, repeat, budget):
    """Median wall time of up to `repeat` runs after a warm-up run, fewer when
    their summed time passes `budget` seconds (slow peers on large masks);
    and the last run's result."""
    start = time.perf_counter()
    result = function()  # warm-up: allocations, CUDA context, caches
    warm_up = time.perf_counter() - start
    if warm_up > budget:  # a slow peer (or a long first compile): one timed run
        start = time.perf_counter()
        result = function()
        return time.perf_counter() - start, 1, result
    times = []
    while len(times) < repeat and (not times or sum(times) < budget):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), len(times), result


def peers(args):
    """(name, setup(mask) -> run()) for every peer that is importable."""
    found = []
    skipped = []
    import cudalabelstatistics as cls

    if cls.cuda_available():
        cupy = optional("cupy")
        if not isinstance(cupy, Exception):
            def ours_cupy(mask):
                device = cupy.asarray(mask)

                def run():
                    table = cls.label_shape_statistics(device)
                    cupy.cuda.get_current_stream().synchronize()
                    return table
                return run
            found.append(("ours CUDA, CuPy input", ours_cupy))
        else:
            skipped.append(f"ours from CuPy: {cupy}")
        torch = optional("torch")
        if not isinstance(torch, Exception) and torch.cuda.is_available():
            def ours_torch(mask):
                device = torch.from_numpy(mask).cuda()

                def run():
                    table = cls.label_shape_statistics(device)
                    torch.cuda.synchronize()
                    return table
                return run
            found.append(("ours CUDA, PyTorch input", ours_torch))
        else:
            skipped.append("ours from PyTorch: torch with CUDA not available")
        found.append(("ours CUDA, NumPy input", lambda mask: lambda: cls.label_shape_statistics(mask,
                                                                                                backend="cuda")))
    else:
        skipped.append("ours on CUDA: no usable CUDA device or a CPU-only build")
    found.append(("ours CPU", lambda mask: lambda: cls.label_shape_statistics(mask, backend="cpu")))

    sitk = optional("SimpleITK")
    if not isinstance(sitk, Exception):
        def simpleitk(mask):
            image = sitk.GetImageFromArray(mask)

            def run():
                stats = sitk.LabelShapeStatisticsImageFilter()
                stats.Execute(sitk.ConnectedComponent(image))
                return [stats.GetCentroid(label) for label in stats.GetLabels()]
            return run
        found.append(("SimpleITK ConnectedComponent + LabelShapeStatistics", simpleitk))
    else:
        skipped.append(f"SimpleITK: {sitk}")

    skimage_measure = optional("skimage.measure")
    if not isinstance(skimage_measure, Exception):
        def skimage(mask):
            properties = ["label", "area", "centroid", "bbox"] + (["perimeter"] if mask.ndim == 2 else [])
            return lambda: skimage_measure.regionprops_table(skimage_measure.label(mask, connectivity=1),
                                                             properties=properties)
        found.append(("scikit-image label + regionprops_table", skimage))
    else:
        skipped.append(f"scikit-image: {skimage_measure}")

    cupy = optional("cupy")
    ndimage = optional("cupyx.scipy.ndimage")
    if not isinstance(cupy, Exception) and not isinstance(ndimage, Exception) and cls.cuda_available():
        def cupy_label(mask):
            device = cupy.asarray(mask)

            def run():
                labels, count = ndimage.label(device)
                flat = labels.ravel()
                counts = cupy.bincount(flat, minlength=count + 1)
                sums = [cupy.bincount(flat, weights=coordinate.ravel().astype(cupy.float64), minlength=count + 1)
                        for coordinate in cupy.indices(mask.shape, dtype=cupy.int32)]
                return cupy.asnumpy(counts), [cupy.asnumpy(s) for s in sums]
            return run
        found.append(("CuPy ndimage.label + bincount", cupy_label))
    else:
        skipped.append("CuPy ndimage.label: CuPy or a GPU missing")
    return found, skipped


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small masks")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--budget", type=float, default=10.0,
                        help="stop repeating a peer on a mask once its timed runs took this many seconds")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args()

    found, skipped = peers(args)
    for line in skipped:
        print(f"skipped: {line}")
    results = []
    for mask_name, mask in masks(args.quick).items():
        for peer_name, setup in found:
            seconds, runs, result = median_seconds(setup(mask), args.repeat, args.budget)
            entry = {"mask": mask_name, "peer": peer_name, "seconds": seconds, "runs": runs,
                     "megapixels_per_second": mask.size / seconds / 1e6}
            stages = ""
            if hasattr(result, "times"):  # ours: where the time goes
                entry["components"] = result.number_of_labels
                entry["stages_ms"] = dict(result.times)
                t = result.times
                stages = (f"  engine {t['total_ms']:.1f} ms (label {t['label_ms']:.1f}, features {t['features_ms']:.1f}),"
                          f" attributes {t.get('shape_attributes_ms', 0):.1f} ms, columns {t.get('columns_ms', 0):.1f} ms,"
                          f" {result.number_of_labels} components")
            results.append(entry)
            print(f"{mask_name:28s} {peer_name:52s} {seconds * 1e3:10.2f} ms {mask.size / seconds / 1e9:8.3f} Gpix/s"
                  f" (median of {runs}){stages}", flush=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"python": sys.version, "machine": platform.platform(), "skipped": skipped,
                       "repeat": args.repeat, "results": results}, out, indent=1)


if __name__ == "__main__":
    main()
