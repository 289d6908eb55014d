"""label_shape_statistics, and the steps every entry point of the package takes."""

from __future__ import annotations

import warnings
from typing import Optional, Sequence

import numpy as np

from . import _core
from ._inputs import allocate_labels, caller_stream, prepare, wrap_labels
from ._statistics import ShapeStatistics


class CpuFallbackWarning(RuntimeWarning):
    """backend="auto" ran on the CPU (no usable CUDA device, or the GPU ran out of memory)."""


def cuda_compiled_in() -> bool:
    """True when this build of the package has the CUDA backend."""
    return _core.cuda_compiled_in()


def cuda_available() -> bool:
    """True when this build has the CUDA backend and a CUDA device is usable."""
    return _core.cuda_available()


def prepare_input(image, *, backend: str, device: Optional[int], **rule_and_geometry):
    """The checks and the input preparation every call starts with."""
    if backend not in ("auto", "cpu", "cuda"):
        raise ValueError(f"backend must be 'auto', 'cpu' or 'cuda', not {backend!r}")
    prepared = prepare(image, **rule_and_geometry)
    if prepared.on_cuda and device is not None and int(device) != prepared.device_index:
        raise ValueError(f"the image is on CUDA device {prepared.device_index}, not on device {device}")
    return prepared


def run_arguments(prepared, *, fully_connected: bool, backend: str, device: Optional[int], stream, threads: int,
                  algorithm: str):
    """The extension's arguments of the run, once every argument is checked;
    warns when backend="auto" will run on the CPU."""
    if backend == "auto" and not prepared.on_cuda and not _core.cuda_available():
        why = "this build has no CUDA backend" if not _core.cuda_compiled_in() else "no CUDA device is usable"
        warnings.warn(f"backend='auto': {why}; running on the CPU", CpuFallbackWarning, stacklevel=3)
    return _core.RunArguments(
        prepared.array,
        foreground_equal=prepared.foreground_equal,
        value=prepared.value,
        fully_connected=bool(fully_connected),
        backend=backend,
        cuda_device=-1 if device is None else int(device),
        stream=caller_stream(prepared, stream),
        threads=int(threads),
        algorithm=str(algorithm),
    )


def check_run(out, labels) -> None:
    """The engine's warnings as CpuFallbackWarning; OverflowError when an int32
    label image cannot hold the count (the engine checks uint32 itself, before
    it writes the labels; int32 it writes as uint32)."""
    for message in out["warnings"]:
        warnings.warn(message, CpuFallbackWarning, stacklevel=3)
    if labels is not None and out["component_count"] > np.iinfo(np.int32).max and \
            str(labels.dtype) in ("int32", "torch.int32"):
        raise OverflowError(f"{out['component_count']} components do not fit the int32 label image: pass a 64-bit "
                            "label_dtype (or out=)")


def label_shape_statistics(
    image,
    *,
    fully_connected: bool = False,
    background_value=None,
    foreground_value=None,
    threshold=None,
    spacing: Optional[Sequence[float]] = None,
    origin: Optional[Sequence[float]] = None,
    direction=None,
    region_index: Optional[Sequence[int]] = None,
    perimeter: bool = True,
    feret_diameter: bool = False,
    oriented_bounding_box: bool = False,
    label_image: bool = False,
    label_dtype=None,
    lines: bool = False,
    backend: str = "auto",
    device: Optional[int] = None,
    stream=None,
    threads: int = 0,
    algorithm: str = "default",
) -> ShapeStatistics:
    """Labels the connected components of a 2D or 3D mask and computes ITK's
    shape statistics of each one, on the GPU (CUDA) or the CPU.

    Equivalent to ``sitk.ConnectedComponent`` followed by
    ``sitk.LabelShapeStatisticsImageFilter`` (same numbering, same attributes)
    or to ``itk.BinaryImageToShapeLabelMapFilter``.

    Parameters
    ----------
    image
        A NumPy array (C order: y, x or z, y, x; any integer or bool dtype;
        strided and reversed views are read in place), a CuPy array or a
        PyTorch tensor (host or CUDA memory, read in place through DLPack: no
        copy, no host round trip), an ``itk.Image`` or a ``SimpleITK.Image``
        (read through their array views; spacing, origin, direction and ITK's
        region index are taken from the image).
    fully_connected
        False: pixels sharing a face are neighbours (4 in 2D, 6 in 3D); True:
        edges and corners too (8 / 26), as SimpleITK's ``fullyConnected``.
    background_value, foreground_value, threshold
        The foreground rule, at most one of them. Default: every pixel
        different from 0 (``sitk.ConnectedComponent``'s rule).
        ``background_value=B``: pixels != B; ``foreground_value=V``: pixels ==
        V (``BinaryImageToShapeLabelMapFilter``'s rule). ``threshold=T``:
        pixels > T, computed as a boolean mask in the image's framework (one
        byte a pixel). A real-typed image needs one of them (ValueError
        otherwise); for it, the value rules also build a mask.
    spacing, origin, direction, region_index
        The image's geometry in ITK's order (x, y[, z]); ``direction`` is
        ITK's direction matrix (rows are physical axes). Defaults: the
        itk/SimpleITK image's, else 1, 0, identity and 0.
    perimeter, feret_diameter, oriented_bounding_box
        The optional attributes, as ITK's ShapeLabelMapFilter: the perimeter
        (with roundness and perimeter_on_border_ratio) on by default, the
        Feret diameter and the oriented bounding box off.
    label_image, label_dtype
        Also return the label image (0 background, components 1..N) in the
        caller's framework and memory: a NumPy/CuPy array (uint32 by default),
        a PyTorch tensor on the input's device (int32 by default), an
        itk.Image or a SimpleITK.Image with the input's geometry.
    lines
        Keep the run-length lines (``ShapeStatistics.lines``), needed by
        ``to_itk_label_map()``.
    backend
        "auto" (CUDA when a device is usable, else the CPU with a
        ``CpuFallbackWarning``; CUDA for device input), "cuda" (raises
        ``CudaUnavailableError`` without a GPU) or "cpu" (raises ValueError for
        device input: it is never copied to the host behind your back).
    device
        The CUDA device for host input (default: the current one); device
        input runs on its own device.
    stream
        The CUDA stream to run on: a ``torch.cuda.Stream``, a
        ``cupy.cuda.Stream`` or a ``cudaStream_t`` as an int. Default for
        device input: the framework's current stream on the input's device
        (``torch.cuda.current_stream()``, ``cupy.cuda.get_current_stream()``),
        so the work that produced the input is complete before it is read and
        later work on that stream sees the label image. The call returns when
        the results are ready.
    threads
        CPU threads (0: all).
    algorithm
        The CUDA labeling strategy (``"default"``; see the C++ ``cca::Algorithm``).

    Returns
    -------
    ShapeStatistics
        A dict of NumPy columns (see its documentation for the columns and
        their x, y, z axis order) with ``to_pandas()``, ``label_image`` and
        ``to_itk_label_map()``.

    Raises
    ------
    ValueError, TypeError
        For unusable arrays (dimension, dtype, a real dtype without a rule,
        broadcast views, values the dtype cannot hold).
    CudaUnavailableError, CudaError (RuntimeError subclasses), MemoryError
        For CUDA failures; MemoryError when memory runs out.
    """
    prepared = prepare_input(image, backend=backend, device=device, background_value=background_value,
                             foreground_value=foreground_value, threshold=threshold, spacing=spacing, origin=origin,
                             direction=direction, region_index=region_index)
    labels = allocate_labels(prepared, label_dtype) if label_image else None
    run = run_arguments(prepared, fully_connected=fully_connected, backend=backend, device=device, stream=stream,
                        threads=threads, algorithm=algorithm)
    out = _core.analyze(
        run,
        labels=labels,
        spacing=prepared.spacing,
        origin=prepared.origin,
        direction=prepared.direction,
        region_index=prepared.region_index,
        perimeter=bool(perimeter),
        feret_diameter=bool(feret_diameter),
        oriented_bounding_box=bool(oriented_bounding_box),
        lines=bool(lines),
    )
    check_run(out, labels)
    d = prepared.dimension
    return ShapeStatistics(
        out["columns"],
        dimension=d,
        backend=out["backend"],
        times=out["times"],
        spacing=prepared.spacing[:d],
        origin=prepared.origin[:d],
        direction=np.asarray(prepared.direction, dtype=float).reshape(3, 3)[:d, :d].copy(),
        region_index=prepared.region_index[:d],
        size=tuple(reversed(prepared.shape)),
        label_image=wrap_labels(prepared, labels) if labels is not None else None,
        lines=(out["runs"].reshape(-1, 4), out["run_offsets"]) if lines else None,
        details={key: out[key] for key in ("data_pointer", "bytes_copied_to_device", "bytes_copied_to_host")},
    )
