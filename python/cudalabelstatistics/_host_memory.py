"""Host label images from the process's pool (the engine's
cca::HostImageMemory): a label image of 64 MiB or more is a block that goes
back to the pool when the array is gone, so that the next one of about its
size finds its pages made and, from its third use, page-locked, where the GPU
writes it by DMA at the bus's speed (about 2x faster end to end for
gigavoxel volumes on the H100 machine, docs/results-history.md)."""

from __future__ import annotations

import operator

import numpy as np

from . import _core


def empty_host_labels(shape, dtype: np.dtype) -> np.ndarray:
    """np.empty(shape, dtype) for a 32 or 64-bit integer dtype, in a pool
    block when it is large enough and the pool is on."""
    dtype = np.dtype(dtype)
    pooled = _core.pooled_label_array([int(n) for n in shape], dtype.kind, dtype.itemsize)
    if pooled is None:
        return np.empty(shape, dtype=dtype)
    return pooled if pooled.dtype == dtype else pooled.view(dtype)  # byte order of a non-native dtype


def host_image_memory_use() -> dict:
    """What the pool of host label image memory holds now, in bytes:
    ``in_use_bytes`` (label images alive), ``idle_bytes`` (kept for the next
    ones), ``pinned_bytes`` (of both, page-locked) and ``idle_limit_bytes``."""
    return dict(_core.host_image_memory_use())


def set_host_image_idle_limit(nbytes: int) -> None:
    """The most bytes of idle label image memory the process keeps for the
    next label images (default: a quarter of the physical memory); 0 turns
    the pool off, and label images are then plain NumPy allocations.
    ``release_cached_memory()`` gives the idle memory back at any time."""
    nbytes = operator.index(nbytes)
    if nbytes < 0:
        raise ValueError(f"nbytes must be >= 0, not {nbytes}")
    _core.set_host_image_idle_limit(nbytes)


def host_image_idle_limit() -> int:
    """The limit set_host_image_idle_limit sets."""
    return int(_core.host_image_idle_limit())
