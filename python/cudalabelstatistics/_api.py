"""label_shape_statistics, and the steps every entry point of the package takes."""

from __future__ import annotations

import warnings
from typing import Optional, Sequence

import numpy as np

from . import _core
from ._inputs import allocate_labels, caller_stream, prepare, prepare_feature_image, wrap_labels
from ._startup import wait_for_start
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
    if backend != "cpu":
        wait_for_start()  # CUDA's start-up, if start_cuda() began one
    prepared = prepare(image, **rule_and_geometry)
    if prepared.on_cuda and device is not None and int(device) != prepared.device_index:
        raise ValueError(f"the image is on CUDA device {prepared.device_index}, not on device {device}")
    return prepared


def run_arguments(prepared, *, fully_connected: bool, backend: str, device: Optional[int], stream, threads: int,
                  algorithm: str, feature=None):
    """The extension's arguments of the run, once every argument is checked;
    warns when backend="auto" will run on the CPU. A feature image in CUDA
    memory beside a host image decides the stream as device input does."""
    if isinstance(threads, (bool, np.bool_)) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"threads must be an integer (0: all), not {threads!r}")
    if not 0 <= threads <= np.iinfo(np.int32).max:
        raise ValueError(f"threads must be between 0 (all) and 2^31 - 1, not {threads}")
    on_device = feature if feature is not None and feature.on_cuda and not prepared.on_cuda else prepared
    if backend == "auto" and not on_device.on_cuda and not _core.cuda_available():
        why = "this build has no CUDA backend" if not _core.cuda_compiled_in() else "no CUDA device is usable"
        warnings.warn(f"backend='auto': {why}; running on the CPU", CpuFallbackWarning, stacklevel=3)
    return _core.RunArguments(
        prepared.array,
        foreground_equal=prepared.foreground_equal,
        value=prepared.value,
        fully_connected=bool(fully_connected),
        backend=backend,
        cuda_device=-1 if device is None else int(device),
        stream=caller_stream(on_device, stream),
        threads=int(threads),
        algorithm=str(algorithm),
    )


OBJECTS = ("components", "label_values", "label_value_components")


def _pixel_count(value, what: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer number of pixels, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{what} must be >= 0, not {value}")
    return int(value)


def object_arguments(prepared, *, objects: str, feature, histogram_bins: int, min_size: int,
                     max_size: Optional[int], keep_largest: Optional[int], sort_by_size: bool):
    """The extension's ObjectArguments after checking them against the prepared image (objects is checked by
    label_shape_statistics before the image is prepared: it decides whether a mask may be made)."""
    minimum = _pixel_count(min_size, "min_size")
    maximum = np.iinfo(np.int64).max if max_size is None else _pixel_count(max_size, "max_size")
    if maximum < minimum:
        raise ValueError(f"max_size ({maximum}) is below min_size ({minimum}): no object could stay")
    largest = 0 if keep_largest is None else _pixel_count(keep_largest, "keep_largest")
    if keep_largest is not None and largest == 0:
        raise ValueError("keep_largest must be >= 1 (None keeps every object)")
    bins = _pixel_count(histogram_bins, "histogram_bins")
    if bins > np.iinfo(np.uint32).max:
        raise ValueError(f"histogram_bins must be below 2^32, not {bins}")
    return _core.ObjectArguments(
        objects=objects,
        feature_image=None if feature is None else feature.array,
        histogram_bins=bins,
        minimum_pixels=minimum,
        maximum_pixels=maximum,
        keep_largest=largest,
        order_by_size=bool(sort_by_size),
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
    feature_image=None,
    histogram_bins: int = 0,
    objects: str = "components",
    min_size: int = 0,
    max_size: Optional[int] = None,
    keep_largest: Optional[int] = None,
    sort_by_size: bool = False,
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
    feature_image
        Adds the intensity columns (``minimum``, ``maximum``, ``mean``,
        ``sum``, ``standard_deviation``, ``variance``, ``median``,
        ``skewness``, ``kurtosis``, ``minimum_index-i``, ``maximum_index-i``,
        ``center_of_gravity-i``, ``weighted_principal_moments-i``,
        ``weighted_principal_axes-i-j``, ``weighted_elongation``,
        ``weighted_flatness``) of this image over each object's pixels, as
        ``sitk.LabelIntensityStatisticsImageFilter`` computes them (the
        median from ``histogram_bins``' histogram, below). A NumPy
        array, a CuPy array, a PyTorch tensor (host or CUDA memory), an
        ``itk.Image`` or a ``SimpleITK.Image`` of the image's shape, any
        integer or bool dtype, float32 or float64, read in place (no copy; in
        CUDA memory, on the image's device when the image is there too; a
        feature image in CUDA memory beside a host image runs on its device
        and its framework's current stream). An itk/SimpleITK feature image
        beside an itk/SimpleITK image must occupy its physical space
        (ValueError otherwise, as ITK's filters). NaN values count as in
        ITK: in the sums (NaN mean), not in the extremes or the range.
    histogram_bins
        The bins of the histogram the ``median`` is read from (ITK's
        StatisticsLabelMapFilter rule: the centre of the bin where half the
        pixels are reached). 0: ITK's default, one bin per value for 8 and
        16-bit integer feature images, else 128 bins over the feature image's
        range (SimpleITK's ``NumberOfBins``).
    objects
        ``"components"`` (default): the connected components of the
        foreground. ``"label_values"``: the image is an integer label image
        and each value other than the background is one object, connected or
        not (``sitk.LabelShapeStatisticsImageFilter`` on a label image); rows
        are in increasing order of the values. ``"label_value_components"``:
        the connected components of each value. Both add a ``label_value``
        column; ``label`` numbers the rows 1..N (the label image's values).
    min_size, max_size, keep_largest, sort_by_size
        Object selection by pixel count, before anything leaves the device:
        objects with fewer than ``min_size`` or more than ``max_size`` pixels
        are dropped, ``keep_largest=K`` keeps the K largest of the others, and
        ``sort_by_size`` numbers them by decreasing size, ties in the original
        order (``sitk.RelabelComponent``'s rule). A selection adds a
        ``source_label`` column: each object's number before it.
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
    if objects not in OBJECTS:
        raise ValueError(f"objects must be one of {OBJECTS}, not {objects!r}")
    prepared = prepare_input(image, backend=backend, device=device, background_value=background_value,
                             foreground_value=foreground_value, threshold=threshold, spacing=spacing, origin=origin,
                             direction=direction, region_index=region_index, label_values=objects != "components")
    feature = None if feature_image is None else prepare_feature_image(feature_image, prepared, device)
    selected = object_arguments(prepared, objects=objects, feature=feature, histogram_bins=histogram_bins,
                                min_size=min_size, max_size=max_size, keep_largest=keep_largest,
                                sort_by_size=sort_by_size)
    labels = allocate_labels(prepared, label_dtype) if label_image else None
    run = run_arguments(prepared, fully_connected=fully_connected, backend=backend, device=device, stream=stream,
                        threads=threads, algorithm=algorithm, feature=feature)
    out = _core.analyze(
        run,
        selected,
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
