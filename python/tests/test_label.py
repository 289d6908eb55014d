"""label(): (labels, count) against skimage.measure.label, scipy.ndimage.label and
label_shape_statistics' label image; the numbering (raster order of the first
pixels), foreground rules, dtypes, views, itk/SimpleITK/PyTorch CPU input,
out= and its misuse. The scikit-image and SciPy comparisons skip without
them; the rest needs only NumPy."""

import warnings

import numpy as np
import pytest

from conftest import STRIDED_VIEWS, blobs, random_blocks

import cudalabelstatistics as cls

INTEGER_DTYPES = ["uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64"]

# (shape, density, block, seed): random masks, the seed in the test's id.
RANDOM_MASKS = [
    ((64, 80), 0.5, 1, 401),
    ((97, 61), 0.35, 1, 402),
    ((70, 90), 0.45, 3, 403),
    ((1, 120), 0.5, 1, 404),
    ((120, 1), 0.5, 1, 405),
    ((16, 20, 24), 0.3, 1, 406),
    ((9, 33, 17), 0.45, 1, 407),
    ((20, 24, 28), 0.4, 2, 408),
    ((1, 30, 40), 0.5, 1, 409),
]


def mask_id(case):
    shape, density, block, seed = case
    return f"{len(shape)}D {'x'.join(map(str, shape))} density={density} block={block} seed={seed}"


@pytest.fixture(scope="module")
def measure():
    return pytest.importorskip("skimage.measure")


def assert_raster_numbered(labels, count, what):
    """Dense labels 0..count whose first pixels, in C order, come in label order."""
    values, first = np.unique(np.asarray(labels).ravel(), return_index=True)
    foreground = values[values != 0]
    np.testing.assert_array_equal(foreground, np.arange(1, count + 1), err_msg=f"{what}: labels not 1..{count}")
    assert np.all(np.diff(first[values != 0]) > 0), f"{what}: labels not in raster order of their first pixels"


def assert_equals_skimage(measure, image, mask, connectivity, what, **kwargs):
    labels, count = cls.label(image, connectivity=connectivity, backend="cpu", **kwargs)
    expected, expected_count = measure.label(mask, connectivity=connectivity, return_num=True)
    np.testing.assert_array_equal(labels, expected, err_msg=what)
    assert count == expected_count, what
    assert isinstance(count, int)
    return labels, count


# ---- against scikit-image -----------------------------------------------------------


@pytest.mark.parametrize("full", [False, True], ids=["connectivity=1", "connectivity=ndim"])
@pytest.mark.parametrize("case", RANDOM_MASKS, ids=mask_id)
def test_random_masks_equal_skimage(measure, case, full):
    shape, density, block, seed = case
    mask = random_blocks(shape, density, block, seed)
    connectivity = mask.ndim if full else 1
    labels, count = assert_equals_skimage(measure, mask, mask != 0, connectivity, mask_id(case))
    assert labels.dtype == np.uint32 and labels.shape == mask.shape and labels.flags.c_contiguous
    assert_raster_numbered(labels, count, mask_id(case))


@pytest.mark.parametrize("shape, seed", [((150, 170), 410), ((30, 40, 36), 411)], ids=["2D seed=410", "3D seed=411"])
def test_blobs_with_lines_equal_skimage(measure, shape, seed):
    mask = blobs(shape, 25, seed, thin=True)
    for connectivity in (1, mask.ndim):
        assert_equals_skimage(measure, mask, mask != 0, connectivity, f"seed={seed} connectivity={connectivity}")


@pytest.mark.parametrize("dtype", INTEGER_DTYPES + ["bool"])
def test_every_integer_dtype(measure, dtype):
    rng = np.random.default_rng(412)
    if dtype == "bool":
        image = rng.random((40, 50)) < 0.5
    else:
        info = np.iinfo(dtype)
        # Values at the type's extremes, so a truncated comparison would show.
        image = rng.choice(np.array([info.min, info.max, 0, 1], dtype=dtype), size=(40, 50))
    for connectivity in (1, 2):
        assert_equals_skimage(measure, image, image != 0, connectivity, f"{dtype} seed=412")


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_foreground_and_background_values(measure, dtype):
    rng = np.random.default_rng(413)
    info = np.iinfo(dtype)
    image = rng.choice(np.array([info.min, info.max, 0, 1], dtype=dtype), size=(12, 15, 18))
    for value in (int(info.min), int(info.max)):
        what = f"{dtype} value={value} seed=413"
        assert_equals_skimage(measure, image, image == value, 3, what, foreground_value=value)
        assert_equals_skimage(measure, image, image != value, 1, what, background_value=value)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_real_images_with_a_rule(measure, dtype):
    image = np.random.default_rng(414).normal(size=(50, 60)).astype(dtype)
    image[::7] = 0
    assert_equals_skimage(measure, image, image > 0.5, 1, dtype, threshold=0.5)
    assert_equals_skimage(measure, image, image != 0, 2, dtype, background_value=0.0)
    assert_equals_skimage(measure, image, image == 0, 2, dtype, foreground_value=0.0)
    with pytest.raises(ValueError, match="threshold"):
        cls.label(image, backend="cpu")


def test_threshold_on_an_integer_image(measure):
    image = np.arange(24 * 30, dtype=np.int32).reshape(24, 30) % 17
    assert_equals_skimage(measure, image, image > 8, 1, "threshold 8", threshold=8)


@pytest.mark.parametrize("view", list(STRIDED_VIEWS))
def test_views_are_numbered_by_their_own_indices(measure, view):
    array = STRIDED_VIEWS[view](random_blocks((60, 70), 0.5, 1, 415), random_blocks((14, 18, 22), 0.4, 1, 416))
    for connectivity in (1, array.ndim):
        labels, count = assert_equals_skimage(measure, array, array != 0, connectivity, f"{view} seeds 415/416")
        assert labels.flags.c_contiguous
        assert_raster_numbered(labels, count, view)
        dense, dense_count = cls.label(np.ascontiguousarray(array), connectivity=connectivity, backend="cpu")
        np.testing.assert_array_equal(labels, dense, err_msg=view)


@pytest.mark.parametrize("case", [RANDOM_MASKS[1], RANDOM_MASKS[6]], ids=mask_id)
def test_equals_scipy_ndimage_label(case):
    ndimage = pytest.importorskip("scipy.ndimage")
    shape, density, block, seed = case
    mask = random_blocks(shape, density, block, seed)
    for connectivity in (1, mask.ndim):
        structure = ndimage.generate_binary_structure(mask.ndim, connectivity)
        for image in (mask, mask[::-1].T):  # the array and a reversed, transposed view
            expected, expected_count = ndimage.label(image, structure)
            labels, count = cls.label(image, connectivity=connectivity, backend="cpu")
            np.testing.assert_array_equal(labels, expected, err_msg=f"{mask_id(case)} connectivity={connectivity}")
            assert count == expected_count


def test_numbering_is_c_order_of_the_array_as_given():
    # Component A's first pixel comes first in C order (row 0), B's first in
    # x-major order (column 0): C order wins, as in skimage and ITK (x fastest).
    image = np.zeros((3, 4), np.uint8)
    image[0, 3] = image[1, 3] = 1  # A: column 3, from row 0
    image[2, 0] = 1  # B: column 0, row 2
    labels, count = cls.label(image, backend="cpu")
    assert count == 2
    assert labels[0, 3] == 1 and labels[1, 3] == 1 and labels[2, 0] == 2
    # The transposed view is numbered by its own indices, not by memory order.
    labels_t, _ = cls.label(image.T, backend="cpu")
    assert labels_t[0, 2] == 1 and labels_t[3, 0] == 2


# ---- against label_shape_statistics --------------------------------------------------


@pytest.mark.parametrize("full", [False, True], ids=["connectivity=1", "connectivity=ndim"])
@pytest.mark.parametrize("name, make", [
    ("2D random seed=417", lambda: random_blocks((130, 150), 0.45, 1, 417)),
    ("2D blobs seed=418", lambda: blobs((120, 140), 20, 418, thin=True)),
    ("3D random seed=419", lambda: random_blocks((20, 30, 35), 0.3, 1, 419)),
    ("3D blobs seed=420", lambda: blobs((24, 28, 32), 12, 420, thin=True)),
], ids=lambda v: v if isinstance(v, str) else "")
def test_equals_label_shape_statistics(name, make, full):
    mask = make()
    labels, count = cls.label(mask, connectivity=mask.ndim if full else 1, backend="cpu")
    table = cls.label_shape_statistics(mask, fully_connected=full, label_image=True, backend="cpu")
    np.testing.assert_array_equal(labels, table.label_image, err_msg=name)
    assert count == table.number_of_labels
    np.testing.assert_array_equal(np.bincount(labels.ravel(), minlength=count + 1)[1:], table["number_of_pixels"],
                                  err_msg=name)


@pytest.mark.parametrize("shape", [(5, 7), (4, 5, 6)], ids=["2D", "3D"])
def test_empty_and_all_foreground_images(shape):
    for connectivity in (1, len(shape)):
        labels, count = cls.label(np.zeros(shape, np.uint8), connectivity=connectivity, backend="cpu")
        assert count == 0 and labels.dtype == np.uint32 and labels.shape == shape and not labels.any()
        labels, count = cls.label(np.full(shape, 9, np.int16), connectivity=connectivity, backend="cpu")
        assert count == 1 and np.all(labels == 1)
        # One pixel image, foreground and background.
        assert cls.label(np.ones((1,) * len(shape), bool), backend="cpu")[1] == 1
        assert cls.label(np.zeros((1,) * len(shape), bool), backend="cpu")[1] == 0


def test_checkerboard_has_one_component_per_pixel_with_faces_and_one_with_corners():
    board = (np.indices((9, 11)).sum(0) % 2).astype(np.uint8)
    labels, count = cls.label(board, backend="cpu")
    assert count == int(board.sum())
    assert_raster_numbered(labels, count, "checkerboard")
    assert cls.label(board, connectivity=2, backend="cpu")[1] == 1
    board3 = (np.indices((5, 6, 7)).sum(0) % 2).astype(np.uint8)
    assert cls.label(board3, backend="cpu")[1] == int(board3.sum())
    assert cls.label(board3, connectivity=3, backend="cpu")[1] == 1


def test_uint64_extremes():
    image = np.full((3, 4), np.iinfo(np.uint64).max, np.uint64)
    image[1] = 0
    labels, count = cls.label(image, foreground_value=2**64 - 1, backend="cpu")
    assert count == 2
    with pytest.raises(ValueError, match="cannot be held"):
        cls.label(np.zeros((3, 3), np.uint8), background_value=256, backend="cpu")


# ---- dtypes and out= ----------------------------------------------------------------


@pytest.mark.parametrize("label_dtype", ["uint32", "uint64", "int32", "int64", np.uint64])
def test_label_dtype(label_dtype):
    mask = random_blocks((40, 50), 0.4, 1, 421)
    labels, count = cls.label(mask, label_dtype=label_dtype, backend="cpu")
    assert labels.dtype == np.dtype(label_dtype)
    reference, reference_count = cls.label(mask, backend="cpu")
    np.testing.assert_array_equal(labels, reference)
    assert count == reference_count


@pytest.mark.parametrize("label_dtype", ["float32", "int16", "uint8", bool])
def test_unusable_label_dtype(label_dtype):
    with pytest.raises(TypeError, match="label_dtype"):
        cls.label(np.ones((4, 4), np.uint8), label_dtype=label_dtype, backend="cpu")


@pytest.mark.parametrize("dtype", ["uint32", "uint64", "int32", "int64"])
def test_out_is_written_and_returned(dtype):
    mask = random_blocks((16, 18, 20), 0.35, 1, 422)
    reference, reference_count = cls.label(mask, connectivity=3, backend="cpu")
    out = np.full(mask.shape, 12345, dtype)  # stale values everywhere: all must be written over
    for _ in range(2):  # reused
        labels, count = cls.label(mask, connectivity=3, out=out, backend="cpu")
        assert labels is out and count == reference_count
        np.testing.assert_array_equal(out, reference)
    emptied, count = cls.label(np.zeros(mask.shape, np.uint8), out=out, backend="cpu")
    assert emptied is out and count == 0 and not out.any()


def test_out_misuse_is_refused_before_anything_runs():
    image = random_blocks((6, 8), 0.5, 1, 423)
    read_only = np.zeros((6, 8), np.uint32)
    read_only.setflags(write=False)
    wide = np.zeros((6, 16), np.uint32)
    as_labels = image.astype(np.uint32)
    cases = [
        (np.zeros((8, 6), np.uint32), ValueError, "shape \\(6, 8\\)"),
        (np.zeros((6, 8, 1), np.uint32), ValueError, "shape"),
        (np.zeros((6, 8), np.float32), TypeError, "32 or 64-bit integer"),
        (np.zeros((6, 8), np.int16), TypeError, "32 or 64-bit integer"),
        (np.zeros((6, 8), bool), TypeError, "32 or 64-bit integer"),
        (np.zeros((6, 8), np.uint32, order="F"), ValueError, "C-contiguous"),
        (wide[:, ::2], ValueError, "C-contiguous"),
        (read_only, ValueError, "read-only"),
        ([[0] * 8] * 6, TypeError, "NumPy, CuPy or PyTorch"),
        (as_labels, ValueError, "shares memory"),
    ]
    for out, error, message in cases:
        sentinel = out.copy() if isinstance(out, np.ndarray) else None
        image_in = as_labels if out is as_labels else image
        with pytest.raises(error, match=message):
            cls.label(image_in, out=out, backend="cpu")
        if sentinel is not None:
            np.testing.assert_array_equal(out, sentinel, err_msg=f"{message}: out was written")
    with pytest.raises(ValueError, match="not both"):
        cls.label(image, out=np.zeros((6, 8), np.uint32), label_dtype="uint32", backend="cpu")


# ---- other arguments ----------------------------------------------------------------


def test_connectivity_and_other_argument_errors():
    image2 = np.ones((4, 5), np.uint8)
    image3 = np.ones((3, 4, 5), np.uint8)
    with pytest.raises(ValueError, match="connectivity must be 1 .* or 3"):
        cls.label(image3, connectivity=2, backend="cpu")
    for bad in (0, 3, -1):
        with pytest.raises(ValueError, match="connectivity"):
            cls.label(image2, connectivity=bad, backend="cpu")
    for bad in (True, 1.0, None, "1"):
        with pytest.raises(TypeError, match="connectivity"):
            cls.label(image2, connectivity=bad, backend="cpu")
    assert cls.label(image2, connectivity=np.int64(2), backend="cpu")[1] == 1
    with pytest.raises(ValueError, match="backend"):
        cls.label(image2, backend="gpu")
    with pytest.raises(ValueError, match="2 or 3 dimensions"):
        cls.label(np.ones(5, np.uint8), backend="cpu")
    with pytest.raises(ValueError, match="empty"):
        cls.label_shape_statistics(np.ones((0, 5), np.uint8), backend="cpu")
    with pytest.raises(ValueError, match="at most one"):
        cls.label(image2, background_value=0, threshold=1, backend="cpu")
    with pytest.raises(ValueError, match="broadcast"):
        cls.label(np.broadcast_to(np.array([0, 1, 1], np.uint8), (4, 3)), backend="cpu")
    with pytest.raises(ValueError, match="algorithm"):
        cls.label(image2, algorithm="fastest", backend="cpu")
    with pytest.raises(TypeError, match="stream"):
        cls.label(image2, stream="default", backend="cpu")


@pytest.mark.skipif(cls.cuda_available(), reason="a CUDA device is usable here")
def test_without_a_gpu():
    with pytest.warns(cls.CpuFallbackWarning, match="CPU"):
        labels, count = cls.label(np.ones((4, 4), np.uint8))
    assert count == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cls.label(np.ones((4, 4), np.uint8), backend="cpu")[1] == 1
    with pytest.raises(cls.CudaUnavailableError):
        cls.label(np.ones((4, 4), np.uint8), backend="cuda")


# ---- other frameworks on the host ---------------------------------------------------


def test_simpleitk_image_in_simpleitk_image_out(measure):
    sitk = pytest.importorskip("SimpleITK")
    mask = random_blocks((20, 25, 30), 0.35, 1, 424)
    image = sitk.GetImageFromArray(mask)
    image.SetSpacing((0.5, 2.0, 1.5))
    image.SetOrigin((3.0, -1.0, 7.0))
    labels, count = cls.label(image, connectivity=3, backend="cpu")
    assert isinstance(labels, sitk.Image)
    assert labels.GetSpacing() == image.GetSpacing() and labels.GetOrigin() == image.GetOrigin()
    assert labels.GetPixelID() == sitk.sitkUInt32
    expected, expected_count = measure.label(mask, connectivity=3, return_num=True)
    np.testing.assert_array_equal(sitk.GetArrayFromImage(labels), expected)
    assert count == expected_count
    connected = sitk.ConnectedComponent(image, True)
    np.testing.assert_array_equal(sitk.GetArrayFromImage(labels), sitk.GetArrayFromImage(connected))


def test_itk_image_in_itk_image_out():
    itk = pytest.importorskip("itk")
    mask = random_blocks((30, 40), 0.45, 1, 425)
    image = itk.image_from_array(mask)
    image.SetSpacing((0.7, 1.3))
    labels, count = cls.label(image, backend="cpu")
    assert tuple(labels.GetSpacing()) == tuple(image.GetSpacing())
    reference = itk.connected_component_image_filter(image)
    np.testing.assert_array_equal(itk.array_from_image(labels), itk.array_from_image(reference))
    assert count == int(itk.array_from_image(reference).max())


def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch")
    mask = random_blocks((18, 22, 26), 0.35, 1, 426)
    reference, reference_count = cls.label(mask, connectivity=3, backend="cpu")
    tensor = torch.from_numpy(mask).permute(2, 0, 1)  # a view: strides passed through
    labels, count = cls.label(tensor, connectivity=3, backend="cpu")
    assert isinstance(labels, torch.Tensor) and labels.dtype == torch.int32 and labels.device.type == "cpu"
    np.testing.assert_array_equal(labels.numpy(), cls.label(mask.transpose(2, 0, 1), connectivity=3,
                                                            backend="cpu")[0])
    labels, count = cls.label(torch.from_numpy(mask), connectivity=3, label_dtype=torch.int64, backend="cpu")
    assert labels.dtype == torch.int64 and count == reference_count
    np.testing.assert_array_equal(labels.numpy(), reference)
    out = torch.empty(mask.shape, dtype=torch.int32)
    got, count = cls.label(torch.from_numpy(mask), connectivity=3, out=out, backend="cpu")
    assert got is out
    np.testing.assert_array_equal(out.numpy(), reference)
    with pytest.raises(ValueError, match="C-contiguous"):
        cls.label(torch.from_numpy(mask), out=torch.empty(mask.shape[::-1], dtype=torch.int32).permute(2, 1, 0),
                  backend="cpu")


@pytest.mark.parametrize("shape", [(0, 5), (3, 0), (0, 4, 4), (2, 3, 0)])
def test_an_array_without_pixels_has_no_components(shape):
    """As scipy.ndimage.label: an empty label array and 0, nothing run."""
    labels, count = cls.label(np.ones(shape, np.uint8), backend="cpu")
    assert count == 0 and labels.shape == shape and labels.dtype == np.uint32
    out = np.zeros(shape, np.int64)
    assert cls.label(np.ones(shape, bool), out=out, backend="cpu") == (out, 0)
    with pytest.raises(ValueError, match="out has shape"):
        cls.label(np.ones(shape, bool), out=np.zeros((1, 1), np.int64), backend="cpu")
    ndimage = pytest.importorskip("scipy.ndimage")
    assert ndimage.label(np.ones(shape, np.uint8))[1] == 0
