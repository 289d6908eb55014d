"""Turning what users pass (NumPy, CuPy, PyTorch, itk, SimpleITK, DLPack) into
one array view for the engine, its physical geometry and its foreground rule,
without copying pixel data: a mask is made only when the caller asks for a
threshold or a rule on a real-typed image."""

from __future__ import annotations

import dataclasses
from typing import Any, Optional, Sequence

import numpy as np

from ._host_memory import empty_host_labels


@dataclasses.dataclass
class PreparedInput:
    """The image as the extension takes it."""

    array: Any  # numpy.ndarray, cupy.ndarray, torch.Tensor or a DLPack producer
    framework: str  # "numpy", "cupy", "torch", "dlpack", "itk" or "sitk"
    dimension: int
    shape: tuple  # array order (z, y, x)
    on_cuda: bool
    device_index: int
    foreground_equal: bool
    value: int
    spacing: tuple  # x, y, z (3 entries)
    origin: tuple
    direction: tuple  # 9 entries, row-major
    region_index: tuple
    keep_alive: Any = None  # the itk or SimpleITK image whose buffer the view reads
    source: Any = None  # the caller's image (itk/SimpleITK), for the label image's geometry


def _module_of(obj) -> str:
    return type(obj).__module__ or ""


def is_torch_tensor(obj) -> bool:
    return _module_of(obj).startswith("torch") and hasattr(obj, "is_cuda")


def is_cupy_array(obj) -> bool:
    return _module_of(obj).startswith("cupy") and hasattr(obj, "__cuda_array_interface__")


def is_sitk_image(obj) -> bool:
    return _module_of(obj).startswith("SimpleITK") and type(obj).__name__ == "Image"


def is_itk_image(obj) -> bool:
    name = type(obj).__name__
    return _module_of(obj).startswith("itk") and name.startswith("itkImage") and hasattr(obj, "GetBufferedRegion")


def _checked_geometry(value, dimension: int, what: str, default, integers: bool = False) -> tuple:
    """A per-axis value in x, y, z order, padded to 3 entries. integers: each
    entry must be an integer and stays one (a float would be truncated, and
    an integer past 2^53 rounded)."""
    if value is None:
        return tuple(default[:3])
    values = list(np.asarray(value, dtype=object if integers else float).ravel())
    if len(values) != dimension:
        raise ValueError(f"{what} must have {dimension} entries (x, y{', z' if dimension == 3 else ''}), "
                         f"not {len(values)}")
    for v in values if integers else ():
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{what} must hold integers, not {v!r}")
    return tuple((int(v) if integers else float(v)) for v in values) + tuple(default[dimension:3])


def _checked_direction(value, dimension: int) -> tuple:
    if value is None:
        matrix = np.eye(dimension)
    else:
        matrix = np.asarray(value, dtype=float)
        if matrix.size != dimension * dimension:
            raise ValueError(f"direction must be a {dimension}x{dimension} matrix (ITK's, row-major)")
        matrix = matrix.reshape(dimension, dimension)
        # ITK's ImageBase::SetDirection refuses a matrix of determinant 0.
        if not np.all(np.isfinite(matrix)) or np.linalg.det(matrix) == 0:
            raise ValueError(f"direction must be an invertible {dimension}x{dimension} matrix of finite values, "
                             f"not {matrix.tolist()}")
    full = np.eye(3)
    full[:dimension, :dimension] = matrix
    return tuple(float(v) for v in full.ravel())


def _unwrap_sitk(image):
    import SimpleITK as sitk

    label_maps = {getattr(sitk, name) for name in ("sitkLabelUInt8", "sitkLabelUInt16", "sitkLabelUInt32",
                                                   "sitkLabelUInt64") if hasattr(sitk, name)}
    if image.GetPixelID() in label_maps:
        # SimpleITK has no array view of a LabelMap: GetArrayViewFromImage aborts the process.
        raise TypeError("the SimpleITK image is a LabelMap; convert it to a label image first "
                        "(SimpleITK.LabelMapToLabel(image))")
    if image.GetNumberOfComponentsPerPixel() != 1:
        raise TypeError("the SimpleITK image must be scalar (one component per pixel)")
    array = sitk.GetArrayViewFromImage(image)
    return array, image.GetSpacing(), image.GetOrigin(), image.GetDirection(), (0,) * image.GetDimension()


def _unwrap_itk(image):
    import itk

    if image.GetNumberOfComponentsPerPixel() != 1:
        raise TypeError("the itk image must be scalar (one component per pixel)")
    buffered = image.GetBufferedRegion()
    largest = image.GetLargestPossibleRegion()
    if tuple(buffered.GetIndex()) != tuple(largest.GetIndex()) or tuple(buffered.GetSize()) != tuple(
        largest.GetSize()
    ):
        # ITK's border attributes refer to the largest possible region, which is not in memory.
        raise ValueError("the itk image's buffered region must be its largest possible region "
                         "(call image.Update() on the whole image first)")
    array = itk.array_view_from_image(image)
    direction = np.asarray(itk.array_from_matrix(image.GetDirection()), dtype=float)
    return (array, tuple(image.GetSpacing()), tuple(image.GetOrigin()), direction,
            tuple(int(i) for i in buffered.GetIndex()))


def _dtype_kind(array, framework: str) -> str:
    """'b', 'i', 'u', 'f', 'c' or '?' without importing the framework."""
    if framework == "torch":
        import torch

        dtype = array.dtype
        if dtype == torch.bool:
            return "b"
        if dtype.is_complex:
            return "c"
        if dtype.is_floating_point:
            return "f"
        return "u" if dtype == torch.uint8 or str(dtype).startswith("torch.uint") else "i"
    dtype = getattr(array, "dtype", None)
    if dtype is None:
        return "?"
    return np.dtype(dtype).kind if framework in ("numpy", "cupy") else "?"


def _check_numpy_like_layout(array, framework: str, what: str = "image") -> None:
    """A dtype the engine reads (bool, integers, float32/64), in native byte
    order, with byte strides it can take as element strides."""
    dtype = np.dtype(array.dtype)
    if dtype.kind not in "biuf":
        raise TypeError(f"the {what}'s dtype {dtype} is not supported: use bool, an integer type, float32 or float64")
    if not dtype.isnative:
        raise ValueError("the image's byte order is not the machine's; convert it with image.astype(image.dtype."
                         "newbyteorder('='))")
    if array.size == 0:
        return  # nothing is read (label's empty answer)
    for size, stride in zip(array.shape, array.strides):
        if size > 1 and stride % dtype.itemsize != 0:
            raise ValueError(f"the image's strides {array.strides} are not multiples of its item size "
                             f"({dtype.itemsize} bytes); pass a copy made with ascontiguousarray")
        if size > 1 and stride == 0:
            raise ValueError("the image has a zero stride (a broadcast view); it is not copied silently: pass "
                             f"{framework}.ascontiguousarray(image) if a copy is what you want")


def _foreground_rule(array, framework: str, kind: str, background_value, foreground_value, threshold,
                     label_values: bool):
    """(array, foreground_equal, value), making a mask only for an explicit threshold or a real-typed image.
    label_values: the pixel values name the objects, so no mask may replace them."""
    given = [name for name, v in (("background_value", background_value), ("foreground_value", foreground_value),
                                  ("threshold", threshold)) if v is not None]
    if len(given) > 1:
        raise ValueError(f"give at most one of background_value, foreground_value and threshold (got {given})")
    if kind == "c":
        raise TypeError("complex images are not supported")
    if label_values and (kind == "f" or threshold is not None):
        raise TypeError("a label image (objects='label_values' or 'label_value_components') must have an integer "
                        "dtype, and takes no threshold: each value is an object")
    if threshold is not None:
        return array > threshold, False, 0
    if kind == "f":
        if background_value is None and foreground_value is None:
            raise ValueError("the image has a real dtype: give threshold= (foreground: pixel > threshold), or "
                             "background_value= / foreground_value= to compare pixels exactly")
        if foreground_value is not None:
            return array == foreground_value, False, 0
        return array != background_value, False, 0
    if foreground_value is not None:
        return array, True, _as_int(foreground_value, "foreground_value")
    return array, False, _as_int(0 if background_value is None else background_value, "background_value")


def _as_int(value, what: str) -> int:
    if isinstance(value, (bool, np.bool_, int, np.integer)):
        return int(value)
    raise TypeError(f"{what} must be an integer for an integer or boolean image, not {type(value).__name__}")


def _unwrap(image):
    """(framework, array, itk/SimpleITK image or None, (spacing, origin, direction, index) or None) of
    anything the package takes as an image."""
    source = None
    geometry = None
    if is_sitk_image(image):
        framework = "sitk"
        source = image
        array, *geometry = _unwrap_sitk(image)
    elif is_itk_image(image):
        framework = "itk"
        source = image
        array, *geometry = _unwrap_itk(image)
    elif is_torch_tensor(image):
        framework = "torch"
        if image.device.type not in ("cpu", "cuda"):
            raise TypeError(f"tensors on device '{image.device.type}' are not supported (CPU and CUDA are)")
        array = image.detach()  # DLPack refuses tensors that require grad; detach shares the storage
    elif is_cupy_array(image):
        framework = "cupy"
        array = image
    elif isinstance(image, np.ndarray):
        framework = "numpy"
        array = image
    elif hasattr(image, "__dlpack__"):
        framework = "dlpack"
        array = image
    elif hasattr(image, "__array_interface__") or hasattr(image, "__array__") or isinstance(image, (list, tuple)):
        framework = "numpy"
        array = np.asarray(image)
    else:
        raise TypeError(f"unsupported image type {type(image).__name__}: pass a NumPy, CuPy or PyTorch array, "
                        "an itk.Image or a SimpleITK.Image")
    return framework, array, source, geometry


def _device_of(array, framework: str):
    """(on_cuda, CUDA device index) of an unwrapped array."""
    if framework == "torch":
        return array.is_cuda, array.device.index if array.is_cuda else 0
    if framework == "cupy":
        return True, int(array.device.id)
    if framework == "dlpack" and hasattr(array, "__dlpack_device__"):
        device_type, device_id = array.__dlpack_device__()
        on_cuda = int(device_type) in (2, 13)  # kDLCUDA, kDLCUDAManaged
        return on_cuda, int(device_id) if on_cuda else 0
    return False, 0


def prepare(image, *, background_value=None, foreground_value=None, threshold=None, spacing=None, origin=None,
            direction=None, region_index: Optional[Sequence[int]] = None, label_values: bool = False,
            allow_empty: bool = False) -> PreparedInput:
    """allow_empty: an image of no pixels is accepted (label's, as
    scipy.ndimage.label's); the caller runs nothing on it."""
    framework, array, source, geometry = _unwrap(image)
    keep_alive = source
    image_spacing, image_origin, image_direction, image_index = geometry or (None,) * 4

    shape = tuple(int(s) for s in array.shape)
    dimension = len(shape)
    if dimension not in (2, 3):
        raise ValueError(f"the image must have 2 or 3 dimensions (y, x or z, y, x), not {dimension} "
                         f"(shape {shape})")
    if 0 in shape and not allow_empty:
        raise ValueError(f"the image is empty (shape {shape})")
    numpy_like = isinstance(array, np.ndarray) or framework == "cupy"
    kind = _dtype_kind(array, "numpy" if isinstance(array, np.ndarray) else framework)
    if numpy_like and kind not in "cf":
        _check_numpy_like_layout(array, "numpy" if isinstance(array, np.ndarray) else "cupy")
    array, equal, value = _foreground_rule(array, framework, kind, background_value, foreground_value, threshold,
                                           label_values)

    on_cuda, device_index = _device_of(array, framework)

    return PreparedInput(
        array=array,
        framework=framework,
        dimension=dimension,
        shape=shape,
        on_cuda=on_cuda,
        device_index=device_index,
        foreground_equal=equal,
        value=value,
        spacing=_checked_geometry(spacing if spacing is not None else image_spacing, dimension, "spacing",
                                  (1.0, 1.0, 1.0)),
        origin=_checked_geometry(origin if origin is not None else image_origin, dimension, "origin",
                                 (0.0, 0.0, 0.0)),
        direction=_checked_direction(direction if direction is not None else image_direction, dimension),
        region_index=_checked_geometry(region_index if region_index is not None else image_index, dimension,
                                       "region_index", (0, 0, 0), integers=True),
        keep_alive=keep_alive,
        source=source,
    )


@dataclasses.dataclass
class PreparedFeature:
    """A feature image as the extension takes it, and where it lives."""

    array: object
    framework: str
    on_cuda: bool
    device_index: int


def prepare_feature_image(feature_image, prepared: PreparedInput, device: Optional[int]) -> PreparedFeature:
    """The feature image as the extension takes it (read in place, never
    copied): host memory or, like the image, CUDA memory (CuPy, PyTorch,
    DLPack) on the device that runs; the image's shape, an integer, boolean
    or 32/64-bit real dtype. An itk/SimpleITK image's array is a view of its
    buffer: the caller's reference to the image keeps it alive during the
    call."""
    framework, array, _source, geometry = _unwrap(feature_image)
    on_cuda, device_index = _device_of(array, framework)
    if on_cuda and prepared.on_cuda and device_index != prepared.device_index:
        raise ValueError(f"the feature image is on CUDA device {device_index} and the image on device "
                         f"{prepared.device_index}: both must be on the device that runs")
    if on_cuda and device is not None and int(device) != device_index:
        raise ValueError(f"the feature image is on CUDA device {device_index}, not on device {device}")
    shape = tuple(int(s) for s in array.shape)
    if shape != prepared.shape:
        raise ValueError(f"the feature image's shape {shape} differs from the image's {prepared.shape}")
    if geometry is not None and prepared.source is not None:
        _check_same_physical_space(geometry, prepared)
    numpy_like = isinstance(array, np.ndarray) or framework == "cupy"
    kind = _dtype_kind(array, "numpy" if isinstance(array, np.ndarray) else framework)
    if kind == "c":
        raise TypeError("complex feature images are not supported")
    if numpy_like:
        if kind == "f" and array.dtype.itemsize not in (4, 8):
            raise TypeError(f"the feature image's dtype {array.dtype} is not supported: use float32 or float64")
        _check_numpy_like_layout(array, "numpy" if isinstance(array, np.ndarray) else "cupy", "feature image")
    return PreparedFeature(array=array, framework=framework, on_cuda=on_cuda, device_index=device_index)


def _check_same_physical_space(geometry, prepared: PreparedInput) -> None:
    """An itk/SimpleITK feature image beside an itk/SimpleITK image must lie
    where the image lies, as ITK's ImageToImageFilter requires of its
    inputs (origin and spacing within 1e-6 of the first spacing, direction
    within 1e-6, the same region index): else its values would be read at
    other physical points than the attributes' coordinates say."""
    spacing, origin, direction, index = geometry
    d = prepared.dimension
    tolerance = 1e-6 * abs(prepared.spacing[0])
    checks = (
        ("spacing", np.asarray(spacing, float), np.asarray(prepared.spacing[:d]), tolerance),
        ("origin", np.asarray(origin, float), np.asarray(prepared.origin[:d]), tolerance),
        ("direction", np.asarray(direction, float).reshape(d, d),
         np.asarray(prepared.direction, float).reshape(3, 3)[:d, :d], 1e-6),
    )
    for what, feature_value, image_value, allowed in checks:
        if feature_value.shape != image_value.shape or np.any(np.abs(feature_value - image_value) > allowed):
            raise ValueError(f"the feature image does not occupy the image's physical space: its {what} is "
                             f"{feature_value.tolist()}, the image's {image_value.tolist()}")
    if tuple(int(i) for i in index) != prepared.region_index[:d]:
        raise ValueError(f"the feature image's region index {tuple(index)} differs from the image's "
                         f"{prepared.region_index[:d]}")


def caller_stream(prepared, stream) -> Optional[int]:
    """The CUDA stream handle to run on, or None for the engine's own stream.

    Device input (`prepared`: the image, or the feature image where only it
    is on the device) runs on the stream the caller's framework uses now
    (PyTorch's or CuPy's current stream of the array's device), so the engine
    reads the data after the work that produced it; an explicit `stream`
    wins. Host input uses the engine's own stream unless a stream is given."""
    if stream is not None:
        if isinstance(stream, (int, np.integer)):
            return int(stream)
        for attribute in ("cuda_stream", "ptr", "handle"):
            handle = getattr(stream, attribute, None)
            if isinstance(handle, (int, np.integer)):
                return int(handle)
        raise TypeError("stream must be a torch.cuda.Stream, a cupy.cuda.Stream or an integer cudaStream_t")
    if not prepared.on_cuda:
        return None
    if prepared.framework == "torch":
        import torch

        return int(torch.cuda.current_stream(prepared.device_index).cuda_stream)
    if prepared.framework == "cupy":
        import cupy

        with cupy.cuda.Device(prepared.device_index):
            return int(cupy.cuda.get_current_stream().ptr)
    return 0  # another DLPack producer: CUDA's legacy default stream


def allocate_labels(prepared: PreparedInput, label_dtype):
    """An empty label image in the caller's framework and memory, C order."""
    shape = prepared.shape
    if prepared.framework == "torch":
        import torch

        dtype = torch.int32 if label_dtype is None else label_dtype
        if isinstance(dtype, str):
            dtype = getattr(torch, dtype)
        if dtype not in (torch.int32, torch.int64) and str(dtype) not in ("torch.uint32", "torch.uint64"):
            raise TypeError("label_dtype must be a 32 or 64-bit integer type")
        device = prepared.array.device
        if device.type == "cpu" and dtype in (torch.int32, torch.int64):
            # A CPU tensor over a pooled NumPy array (torch.from_numpy shares it).
            return torch.from_numpy(empty_host_labels(shape, np.int32 if dtype == torch.int32 else np.int64))
        return torch.empty(shape, dtype=dtype, device=device)
    if prepared.framework == "cupy":
        import cupy

        dtype = np.dtype(np.uint32 if label_dtype is None else label_dtype)
        with cupy.cuda.Device(prepared.device_index):
            return cupy.empty(shape, dtype=_label_numpy_dtype(dtype))
    dtype = _label_numpy_dtype(np.dtype(np.uint32 if label_dtype is None else label_dtype))
    if prepared.framework == "itk":
        view = _itk_label_image_view(shape, dtype)
        if view is not None:
            return view
        _check_itk_has_label_type(dtype, len(shape))
    if prepared.on_cuda:
        raise ValueError("a label image for this array type needs CuPy or PyTorch input; pass a CuPy array or a "
                         "PyTorch tensor, or leave label_image off")
    return empty_host_labels(shape, dtype)


def _itk_label_image_view(shape, dtype: np.dtype):
    """A writable NumPy view (itk's NDArrayITKBase, holding the image) of a
    new itk.Image of the pixel type itk.image_from_array gives dtype: the
    engine writes the labels straight into the image that is returned,
    instead of into an array copied into one afterwards (a second pass over
    gigabytes for large volumes). None where this itk lacks the type's
    buffer wrapping: the labels then go through an array as before."""
    import itk

    try:
        image_type = type(itk.image_from_array(np.zeros((1,) * len(shape), dtype)))
        image = image_type.New()
        region = itk.ImageRegion[len(shape)]()
        region.SetSize([int(n) for n in reversed(shape)])
        image.SetRegions(region)
        image.Allocate()
        view = itk.array_view_from_image(image)
    except (AttributeError, KeyError, RuntimeError, TypeError, getattr(itk, "TemplateTypeError", TypeError)):
        return None
    if view.dtype != dtype or view.shape != tuple(shape) or not view.flags.writeable or not view.flags.c_contiguous:
        return None
    return view


def _check_itk_has_label_type(dtype: np.dtype, dimension: int) -> None:
    """TypeError before the run where itk has no image type of the labels'
    dtype (the label image is made after it)."""
    import itk

    try:
        itk.image_from_array(np.zeros((1,) * dimension, dtype))
    except Exception as error:  # itk raises TemplateTypeError, KeyError or others by version
        raise TypeError(f"this itk has no image type for label_dtype {dtype}: use uint32 or uint64") from error


def _label_numpy_dtype(dtype: np.dtype) -> np.dtype:
    if dtype.kind not in "iu" or dtype.itemsize not in (4, 8):
        raise TypeError("label_dtype must be a 32 or 64-bit integer type (uint32 by default)")
    if not dtype.isnative:
        raise TypeError(f"label_dtype {dtype.str} is not in the machine's byte order: use {dtype.newbyteorder('=')}")
    return dtype


def wrap_labels(prepared: PreparedInput, labels):
    """The label image as the caller's framework holds images: itk and
    SimpleITK inputs get an image with their geometry, arrays an array."""
    if prepared.framework == "sitk":
        import SimpleITK as sitk

        image = sitk.GetImageFromArray(labels)
        image.CopyInformation(prepared.source)
        return image
    if prepared.framework == "itk":
        import itk

        # The image the engine wrote into (_itk_label_image_view), or a copy.
        image = getattr(labels, "itk_base", None)
        if image is None:
            image = itk.image_from_array(labels)
        image.SetOrigin(prepared.source.GetOrigin())
        image.SetSpacing(prepared.source.GetSpacing())
        image.SetDirection(prepared.source.GetDirection())
        region = image.GetLargestPossibleRegion()
        region.SetIndex(prepared.source.GetLargestPossibleRegion().GetIndex())
        image.SetRegions(region)
        return image
    return labels
