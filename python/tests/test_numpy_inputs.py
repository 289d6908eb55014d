"""NumPy inputs: every integer dtype and bool, strided, reversed and
transposed views read in place, real-typed images with a threshold; labels
against skimage.measure.label."""

import numpy as np
import pytest

from conftest import STRIDED_VIEWS, Case, blobs, compare_with_reference, random_blocks, sitk_reference

import cudalabelstatistics as cls

measure = pytest.importorskip("skimage.measure")

INTEGER_DTYPES = ["uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64"]


def skimage_labels(mask, fully_connected):
    return measure.label(mask != 0, connectivity=mask.ndim if fully_connected else 1)


@pytest.mark.parametrize("fully", [False, True], ids=["face", "full"])
@pytest.mark.parametrize("shape, seed", [((45, 67), 61), ((11, 19, 23), 62)], ids=["2D seed=61", "3D seed=62"])
def test_labels_equal_skimage(shape, seed, fully):
    mask = random_blocks(shape, 0.35 if fully else 0.5, 1, seed)
    ours = cls.label_shape_statistics(mask, fully_connected=fully, label_image=True, backend="cpu")
    expected = skimage_labels(mask, fully)
    np.testing.assert_array_equal(ours.label_image, expected)
    assert ours.label_image.dtype == np.uint32
    assert ours.number_of_labels == expected.max()
    np.testing.assert_array_equal(ours["number_of_pixels"], np.bincount(expected.ravel())[1:])


@pytest.mark.parametrize("dtype", INTEGER_DTYPES + ["bool"])
def test_every_integer_dtype(dtype):
    rng = np.random.default_rng(63)
    if dtype == "bool":
        image = rng.random((30, 40)) < 0.5
        mask = image
    else:
        info = np.iinfo(dtype)
        # Values at the type's extremes, so a truncated comparison would show.
        image = rng.choice(np.array([info.min, info.max, 0, 1], dtype=dtype), size=(30, 40))
        mask = image != info.max
    kwargs = {} if dtype == "bool" else {"background_value": int(np.iinfo(dtype).max)}
    ours = cls.label_shape_statistics(image, label_image=True, backend="cpu", **kwargs)
    np.testing.assert_array_equal(ours.label_image, skimage_labels(mask, False), err_msg=dtype)


def test_foreground_value_rule():
    image = np.array([[0, 3, 3, 7], [7, 7, 0, 3], [3, 0, 0, 3]], dtype=np.int16)
    ours = cls.label_shape_statistics(image, foreground_value=3, label_image=True, backend="cpu")
    np.testing.assert_array_equal(ours.label_image, skimage_labels(image == 3, False))


@pytest.mark.parametrize("view", list(STRIDED_VIEWS))
def test_strided_views_are_read_in_place(view):
    array = STRIDED_VIEWS[view](random_blocks((60, 70), 0.5, 2, 64), random_blocks((14, 18, 22), 0.4, 1, 65))
    assert not array.flags.c_contiguous or view == "Fortran order 3D"
    ours = cls.label_shape_statistics(array, label_image=True, backend="cpu", feret_diameter=True,
                                      oriented_bounding_box=True)
    # The engine read the caller's buffer: the data pointer is the view's own.
    assert ours.data_pointer == array.__array_interface__["data"][0]
    dense = np.ascontiguousarray(array)
    np.testing.assert_array_equal(ours.label_image, skimage_labels(dense, False))
    reference, _ = sitk_reference(Case(view, dense), feret=True, obb=True)
    compare_with_reference(ours, reference, view, mask=dense, labels=ours.label_image)


def test_read_only_and_size_one_axes():
    mask = blobs((1, 30, 40), 5, 66)
    mask.setflags(write=False)
    ours = cls.label_shape_statistics(mask, backend="cpu", label_image=True)
    np.testing.assert_array_equal(ours.label_image, skimage_labels(mask, False))
    column = random_blocks((25, 1), 0.5, 1, 67)
    ours = cls.label_shape_statistics(column, backend="cpu", label_image=True)
    np.testing.assert_array_equal(ours.label_image, skimage_labels(column, False))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_real_images_with_a_threshold(dtype):
    rng = np.random.default_rng(68)
    image = rng.normal(size=(40, 50)).astype(dtype)
    ours = cls.label_shape_statistics(image, threshold=0.5, label_image=True, backend="cpu")
    np.testing.assert_array_equal(ours.label_image, skimage_labels(image > 0.5, False))
    ours = cls.label_shape_statistics(image, background_value=0.0, backend="cpu")
    assert ours.number_of_labels == skimage_labels(image != 0.0, False).max()


def test_threshold_on_an_integer_image():
    image = np.arange(100, dtype=np.int32).reshape(10, 10) % 17
    ours = cls.label_shape_statistics(image, threshold=8, label_image=True, backend="cpu")
    np.testing.assert_array_equal(ours.label_image, skimage_labels(image > 8, False))


def test_label_image_uint64_and_pandas():
    pd = pytest.importorskip("pandas")
    mask = blobs((30, 30), 6, 69)
    ours = cls.label_shape_statistics(mask, label_image=True, label_dtype="uint64", backend="cpu")
    assert ours.label_image.dtype == np.uint64
    frame = ours.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == list(ours.keys())
    assert len(frame) == ours.number_of_labels
    assert list(ours)[:5] == ["label", "number_of_pixels", "physical_size", "centroid-0", "centroid-1"]


def test_column_names_follow_simpleitk_in_snake_case():
    ours = cls.label_shape_statistics(np.ones((3, 4, 5), np.uint8), backend="cpu", feret_diameter=True,
                                      oriented_bounding_box=True)
    expected = (["label", "number_of_pixels", "physical_size"] + [f"centroid-{i}" for i in range(3)] +
                [f"bbox-{i}" for i in range(6)] + ["number_of_pixels_on_border", "perimeter_on_border",
                                                     "perimeter", "roundness"] +
                [f"principal_moments-{i}" for i in range(3)] +
                [f"principal_axes-{i}-{j}" for i in range(3) for j in range(3)] +
                ["elongation", "flatness", "equivalent_spherical_radius", "equivalent_spherical_perimeter"] +
                [f"equivalent_ellipsoid_diameter-{i}" for i in range(3)] +
                ["feret_diameter", "perimeter_on_border_ratio"] +
                [f"oriented_bounding_box_origin-{i}" for i in range(3)] +
                [f"oriented_bounding_box_size-{i}" for i in range(3)])
    assert list(ours) == expected
    # bbox: SimpleITK's (index x, y, z, size x, y, z), so x (the last NumPy axis) comes first.
    assert [ours[f"bbox-{i}"][0] for i in range(6)] == [0, 0, 0, 5, 4, 3]
    without = cls.label_shape_statistics(np.ones((3, 4)), threshold=0, perimeter=False, backend="cpu")
    assert "perimeter" not in without and "roundness" not in without and "perimeter_on_border_ratio" not in without
