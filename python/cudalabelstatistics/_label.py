"""label: the connected components only, as scipy.ndimage.label returns them."""

from __future__ import annotations

from typing import Optional

import numpy as np

from . import _core
from ._api import check_run, prepare_input, run_arguments
from ._inputs import allocate_labels, wrap_labels


def label(
    image,
    *,
    connectivity: int = 1,
    background_value=None,
    foreground_value=None,
    threshold=None,
    label_dtype=None,
    out=None,
    backend: str = "auto",
    device: Optional[int] = None,
    stream=None,
    threads: int = 0,
    algorithm: str = "default",
):
    """Labels the connected components of a 2D or 3D mask, on the GPU (CUDA)
    or the CPU, and returns ``(labels, count)`` as ``scipy.ndimage.label``,
    ``cupyx.scipy.ndimage.label`` and ``skimage.measure.label(...,
    return_num=True)`` do. Nothing but the labels is computed: no statistics
    table is made, and device input gets its labels on the device.

    ``labels`` is dense: 0 is the background and the components are numbered
    1..count in raster order of their first pixel, where raster order is the
    C order of the array as given (the last axis fastest: x, then y, then z of
    an array indexed [z, y, x]; the layout in memory does not matter, a
    transposed or reversed view is numbered by its own indices). This is
    ``skimage.measure.label``'s numbering (and ``sitk.ConnectedComponent``'s)
    exactly, and the one ``label_shape_statistics``'s rows follow.

    Parameters
    ----------
    image
        As for ``label_shape_statistics``: a NumPy array (any integer or bool
        dtype, strided and reversed views read in place), a CuPy array or a
        PyTorch tensor (host or CUDA memory, read in place through DLPack), an
        ``itk.Image`` or a ``SimpleITK.Image``.
    connectivity
        As scikit-image's: 1 (the default, as ``scipy.ndimage.label``'s):
        pixels sharing a face are neighbours (4 in 2D, 6 in 3D); ``ndim``:
        edges and corners too (8 in 2D, 26 in 3D; scikit-image's default).
        18-connectivity (2 in 3D) is not supported.
    background_value, foreground_value, threshold
        The foreground rule, at most one of them. Default: every pixel other
        than 0 (scikit-image's ``background=0``, scipy's rule).
        ``background_value=B``: pixels != B; ``foreground_value=V``: pixels ==
        V; ``threshold=T``: pixels > T (a boolean mask made in the image's
        framework). A real-typed image needs one of them.
    label_dtype
        The labels' dtype: ``uint32`` (the default) or ``uint64`` for NumPy,
        CuPy, itk and SimpleITK; ``torch.int32`` (the default: PyTorch's
        unsigned types support few operations) or ``torch.int64`` for PyTorch.
        When the count does not fit, OverflowError is raised (for 32-bit
        unsigned labels by the engine, before it writes a label).
    out
        An array to write the labels into instead of a new one, returned as
        ``labels``: the image's shape, C-contiguous, writable, a 32 or 64-bit
        integer dtype, in the image's memory (host memory for host input, the
        image's CUDA device for device input) and apart from the image.
        Otherwise ValueError or TypeError before anything is run. Not together
        with ``label_dtype``.
    backend, device, stream, threads, algorithm
        As for ``label_shape_statistics``: "auto" runs on CUDA when a device
        is usable, else on the CPU with a ``CpuFallbackWarning``; device input
        runs on its framework's current stream unless ``stream=`` is given,
        and the call returns when the labels are written.

    Returns
    -------
    labels
        In the input's framework and memory: a NumPy or CuPy array (on the
        input's device) or a PyTorch tensor on the input's device, or an
        ``itk.Image`` / ``SimpleITK.Image`` with the input's geometry; ``out``
        itself when given.
    count : int
        The number of components (the largest label). An array without
        pixels (a zero-length axis) gives an empty label array and 0, as
        ``scipy.ndimage.label`` does.
    """
    if isinstance(connectivity, (bool, np.bool_)) or not isinstance(connectivity, (int, np.integer)):
        raise TypeError(f"connectivity must be an integer (1 or the image's dimension), not {connectivity!r}")
    if out is not None and label_dtype is not None:
        raise ValueError("give label_dtype or out, not both (out's dtype is the labels' dtype)")
    prepared = prepare_input(image, backend=backend, device=device, background_value=background_value,
                             foreground_value=foreground_value, threshold=threshold, allow_empty=True)
    d = prepared.dimension
    if connectivity not in (1, d):
        raise ValueError(f"connectivity must be 1 (faces) or {d} (faces, edges{' and corners' if d == 3 else ''}) "
                         f"for a {d}D image, not {connectivity}")
    labels = allocate_labels(prepared, label_dtype) if out is None else _checked_out(out)
    if 0 in prepared.shape:
        # No pixel, no component: scipy.ndimage.label's answer, nothing run.
        if tuple(int(n) for n in labels.shape) != prepared.shape:
            raise ValueError(f"out has shape {tuple(labels.shape)}, not the image's {prepared.shape}")
        return (wrap_labels(prepared, labels) if out is None else out), 0
    run = run_arguments(prepared, fully_connected=connectivity == d, backend=backend, device=device, stream=stream,
                        threads=threads, algorithm=algorithm)
    result = _core.label(run, labels=labels)
    check_run(result, labels)
    return (wrap_labels(prepared, labels) if out is None else out), int(result["component_count"])


def _checked_out(out):
    """out as the extension takes it; the extension checks its shape, dtype,
    layout, memory and overlap with the image."""
    if isinstance(out, np.ndarray):
        if not out.flags.writeable:
            raise ValueError("out is read-only")
        if out.dtype.kind not in "iu" or out.dtype.itemsize not in (4, 8):
            raise TypeError(f"out's dtype {out.dtype} is not a 32 or 64-bit integer type")
        if not out.dtype.isnative:
            raise TypeError(f"out's dtype {out.dtype.str} is not in the machine's byte order")
        return out
    if hasattr(out, "__dlpack__"):
        return out
    raise TypeError(f"out must be a NumPy, CuPy or PyTorch array, not {type(out).__name__}")
