"""The exceptions Python users expect, with messages that say what to do."""

import warnings

import numpy as np
import pytest

import cudalabelstatistics as cls


@pytest.mark.parametrize("shape", [(5,), (2, 3, 4, 5), ()])
def test_dimension(shape):
    with pytest.raises(ValueError, match="2 or 3 dimensions"):
        cls.label_shape_statistics(np.zeros(shape, np.uint8), backend="cpu")


def test_real_image_without_a_rule():
    with pytest.raises(ValueError, match="threshold"):
        cls.label_shape_statistics(np.zeros((4, 4), np.float32), backend="cpu")


def test_complex_and_object_images():
    with pytest.raises(TypeError, match="complex"):
        cls.label_shape_statistics(np.zeros((4, 4), np.complex64), threshold=0, backend="cpu")
    with pytest.raises(TypeError):
        cls.label_shape_statistics(np.zeros((4, 4), object), backend="cpu")
    with pytest.raises(TypeError, match="unsupported image type"):
        cls.label_shape_statistics(object(), backend="cpu")


def test_values_the_dtype_cannot_hold():
    image = np.zeros((4, 4), np.uint8)
    with pytest.raises(ValueError, match="cannot be held"):
        cls.label_shape_statistics(image, background_value=300, backend="cpu")
    with pytest.raises(ValueError, match="cannot be held"):
        cls.label_shape_statistics(image, foreground_value=-1, backend="cpu")
    with pytest.raises(TypeError, match="integer"):
        cls.label_shape_statistics(image, foreground_value=1.5, backend="cpu")
    # The extremes of 64-bit types are fine.
    big = np.full((3, 3), np.iinfo(np.uint64).max, np.uint64)
    assert cls.label_shape_statistics(big, foreground_value=2**64 - 1, backend="cpu")["number_of_pixels"][0] == 9
    small = np.full((3, 3), np.iinfo(np.int64).min, np.int64)
    assert cls.label_shape_statistics(small, foreground_value=-(2**63), backend="cpu").number_of_labels == 1


def test_more_than_one_rule():
    with pytest.raises(ValueError, match="at most one"):
        cls.label_shape_statistics(np.zeros((4, 4), np.uint8), background_value=0, threshold=1, backend="cpu")


def test_broadcast_views_are_not_copied_silently():
    row = np.array([0, 1, 1, 0, 1], np.uint8)
    with pytest.raises(ValueError, match="broadcast"):
        cls.label_shape_statistics(np.broadcast_to(row, (6, 5)), backend="cpu")


def test_foreign_byte_order():
    with pytest.raises(ValueError, match="byte order"):
        cls.label_shape_statistics(np.zeros((4, 4), ">u2"), backend="cpu")


def test_geometry_arguments():
    image = np.ones((4, 5), np.uint8)
    with pytest.raises(ValueError, match="spacing must have 2 entries"):
        cls.label_shape_statistics(image, spacing=(1, 1, 1), backend="cpu")
    with pytest.raises(ValueError, match="positive"):
        cls.label_shape_statistics(image, spacing=(1, 0), backend="cpu")
    with pytest.raises(ValueError, match="direction"):
        cls.label_shape_statistics(image, direction=np.eye(3), backend="cpu")


def test_bad_options():
    image = np.ones((4, 5), np.uint8)
    with pytest.raises(ValueError, match="backend"):
        cls.label_shape_statistics(image, backend="gpu")
    with pytest.raises(TypeError, match="label_dtype"):
        cls.label_shape_statistics(image, label_image=True, label_dtype=np.float32, backend="cpu")
    with pytest.raises(ValueError, match="algorithm"):
        cls.label_shape_statistics(image, algorithm="fastest", backend="cpu")
    with pytest.raises(TypeError, match="stream"):
        cls.label_shape_statistics(image, stream="default", backend="cpu")


def test_sums_that_would_overflow_raise_overflow_error():
    # A 2^22 x 2^22 view of an 8 MiB buffer: the engine refuses it before reading a pixel.
    buffer = np.zeros(2**23, np.uint8)
    huge = np.lib.stride_tricks.as_strided(buffer, shape=(2**22, 2**22), strides=(1, 1), writeable=False)
    with pytest.raises(OverflowError, match="2\\^64"):
        cls.label_shape_statistics(huge, backend="cpu")


def test_exception_classes():
    assert issubclass(cls.CudaError, RuntimeError)
    assert issubclass(cls.CudaUnavailableError, cls.CudaError)
    assert issubclass(cls.CpuFallbackWarning, RuntimeWarning)


@pytest.mark.skipif(cls.cuda_available(), reason="a CUDA device is usable here")
def test_cuda_backend_without_a_gpu_raises():
    with pytest.raises(cls.CudaUnavailableError) as raised:
        cls.label_shape_statistics(np.ones((4, 4), np.uint8), backend="cuda")
    assert isinstance(raised.value, RuntimeError)
    assert "CUDA" in str(raised.value)


@pytest.mark.skipif(cls.cuda_available(), reason="a CUDA device is usable here")
def test_auto_backend_without_a_gpu_warns_and_uses_the_cpu():
    with pytest.warns(cls.CpuFallbackWarning, match="CPU"):
        table = cls.label_shape_statistics(np.ones((4, 4), np.uint8))
    assert table.backend == "cpu"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cls.label_shape_statistics(np.ones((4, 4), np.uint8), backend="cpu").backend == "cpu"


def test_unsupported_dtypes_are_named():
    mask = np.zeros((8, 8), bool)
    for dtype in (object, "m8[s]", "U1"):
        with pytest.raises(TypeError, match="dtype .* is not supported"):
            cls.label(np.zeros((8, 8), dtype), backend="cpu")
    with pytest.raises(TypeError, match="out's dtype"):
        cls.label(mask, out=np.zeros(mask.shape, ">u4"), backend="cpu")
    with pytest.raises(TypeError, match="out's dtype"):
        cls.label(mask, out=np.zeros(mask.shape, np.float32), backend="cpu")
    with pytest.raises(TypeError, match="byte order"):
        cls.label(mask, label_dtype=">u4", backend="cpu")
    with pytest.raises(TypeError, match="feature image's dtype"):
        cls.label_shape_statistics(mask, feature_image=np.zeros(mask.shape, object), backend="cpu")


def test_threads_are_checked():
    mask = np.ones((4, 4), bool)
    with pytest.raises(ValueError, match="threads"):
        cls.label(mask, threads=2**40, backend="cpu")
    with pytest.raises(ValueError, match="threads"):
        cls.label_shape_statistics(mask, threads=-1, backend="cpu")
    with pytest.raises(TypeError, match="threads"):
        cls.label(mask, threads=1.5, backend="cpu")
    assert cls.label(mask, threads=np.int64(2), backend="cpu")[1] == 1


def test_region_index_and_direction_are_checked():
    image = np.ones((4, 5), np.uint8)
    with pytest.raises(TypeError, match="region_index must hold integers"):
        cls.label_shape_statistics(image, region_index=(1.7, 2.2), backend="cpu")
    big = cls.label_shape_statistics(image, region_index=(2**62 + 1, 3), backend="cpu")
    assert int(big["bbox-0"][0]) == 2**62 + 1 and int(big["bbox-1"][0]) == 3
    with pytest.raises(ValueError, match="invertible"):
        cls.label_shape_statistics(image, direction=np.zeros((2, 2)), backend="cpu")
    with pytest.raises(ValueError, match="invertible"):
        cls.label_shape_statistics(image, direction=[[1, 0], [0, np.nan]], backend="cpu")
