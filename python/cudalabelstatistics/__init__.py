"""Connected-component analysis of 2D and 3D masks on NVIDIA GPUs (CPU
fallback) with ITK's shape statistics, from NumPy, CuPy, PyTorch, itk and
SimpleITK.

    >>> import numpy as np, cudalabelstatistics as cls
    >>> mask = np.zeros((64, 64), np.uint8); mask[10:20, 5:40] = 1
    >>> table = cls.label_shape_statistics(mask, backend="cpu")
    >>> table["number_of_pixels"]
    array([350])
    >>> labels, count = cls.label(mask, backend="cpu")
    >>> count
    1
"""

from ._api import CpuFallbackWarning, cuda_available, cuda_compiled_in, label_shape_statistics
from ._core import CudaError, CudaUnavailableError, release_cached_memory
from ._host_memory import host_image_idle_limit, host_image_memory_use, set_host_image_idle_limit
from ._label import label
from ._startup import start_cuda
from ._statistics import ShapeStatistics

__version__ = "0.1.0"

__all__ = [
    "CpuFallbackWarning",
    "CudaError",
    "CudaUnavailableError",
    "ShapeStatistics",
    "cuda_available",
    "cuda_compiled_in",
    "host_image_idle_limit",
    "host_image_memory_use",
    "label",
    "label_shape_statistics",
    "release_cached_memory",
    "set_host_image_idle_limit",
    "start_cuda",
]
