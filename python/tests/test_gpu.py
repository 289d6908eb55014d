"""CUDA: CuPy arrays and PyTorch tensors read in place (the engine gets the
caller's device pointer, nothing is uploaded), results equal to the CPU
backend's, the caller's stream, the label image on the device. Skipped
without a usable GPU (and per framework without CuPy or PyTorch)."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from conftest import blobs, produced_on_current_stream, random_blocks

import cudalabelstatistics as cls

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not cls.cuda_available(), reason="no usable CUDA device (or a CPU-only build)"),
]

OPTIONS = dict(feret_diameter=True, oriented_bounding_box=True, lines=True)


def cpu_table(mask, **kwargs):
    return cls.label_shape_statistics(np.ascontiguousarray(mask), backend="cpu", label_image=True, **OPTIONS,
                                      **kwargs)


def assert_same_table(got, want, what):
    assert got.backend == "cuda", what
    assert list(got) == list(want), what
    for name in want:
        np.testing.assert_array_equal(np.asarray(got[name]), np.asarray(want[name]), err_msg=f"{what}: {name}")
    for got_part, want_part in zip(got.lines, want.lines):
        np.testing.assert_array_equal(got_part, want_part, err_msg=f"{what}: lines")


MASKS = {
    "2D random seed=201": lambda: random_blocks((257, 301), 0.45, 1, 201),
    "2D blobs seed=202": lambda: blobs((300, 280), 40, 202, thin=True),
    "3D random seed=203": lambda: random_blocks((33, 65, 70), 0.3, 2, 203),
}


# ---- CuPy -------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(MASKS))
@pytest.mark.parametrize("fully", [False, True], ids=["face", "full"])
def test_cupy_in_place_equals_cpu(cupy, name, fully):
    mask = MASKS[name]()
    device_mask = cupy.asarray(mask)
    got = cls.label_shape_statistics(device_mask, fully_connected=fully, label_image=True, **OPTIONS)
    assert got.data_pointer == device_mask.data.ptr
    assert got.bytes_copied_to_device == 0
    assert isinstance(got.label_image, cupy.ndarray) and got.label_image.device.id == device_mask.device.id
    want = cpu_table(mask, fully_connected=fully)
    assert_same_table(got, want, name)
    np.testing.assert_array_equal(cupy.asnumpy(got.label_image), want.label_image)


@pytest.mark.parametrize("view", ["every other column", "reversed", "transposed 3D"])
def test_cupy_strided_views_in_place(cupy, view):
    base2 = cupy.asarray(random_blocks((200, 240), 0.5, 2, 204))
    base3 = cupy.asarray(random_blocks((20, 30, 40), 0.3, 1, 205))
    array = {"every other column": lambda: base2[:, ::2], "reversed": lambda: base2[::-1, ::-1],
             "transposed 3D": lambda: base3.transpose(2, 0, 1)}[view]()
    got = cls.label_shape_statistics(array, label_image=True, **OPTIONS)
    assert got.data_pointer == array.data.ptr
    assert got.bytes_copied_to_device == 0
    want = cpu_table(cupy.asnumpy(array))
    assert_same_table(got, want, view)
    np.testing.assert_array_equal(cupy.asnumpy(got.label_image), want.label_image)


def test_cupy_non_default_stream(cupy):
    mask = random_blocks((512, 512), 0.4, 1, 206)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        # Produced on the stream just before the call: the engine must run after it.
        device_mask = (cupy.asarray(mask) * 3 + 1) % 2
        got = cls.label_shape_statistics(device_mask, label_image=True, **OPTIONS)
        labels_on_stream = got.label_image.copy()  # queued after the engine's writes on the same stream
    stream.synchronize()
    want = cpu_table((mask * 3 + 1) % 2)
    assert_same_table(got, want, "current CuPy stream")
    np.testing.assert_array_equal(cupy.asnumpy(labels_on_stream), want.label_image)
    explicit = cls.label_shape_statistics(device_mask, stream=stream, **OPTIONS)
    assert_same_table(explicit, cpu_table((mask * 3 + 1) % 2), "explicit CuPy stream")


def test_cupy_float_threshold_and_cpu_backend_refusal(cupy):
    values = cupy.asarray(np.random.default_rng(207).normal(size=(128, 160)).astype(np.float32))
    got = cls.label_shape_statistics(values, threshold=0.3, **OPTIONS)
    assert_same_table(got, cpu_table(cupy.asnumpy(values) > 0.3), "threshold")
    with pytest.raises(ValueError, match="CPU backend cannot access CUDA device memory"):
        cls.label_shape_statistics(cupy.asarray(random_blocks((8, 8), 0.5, 1, 1)), backend="cpu")


# ---- PyTorch ------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["uint8", "bool", "int32", "int64"])
def test_torch_in_place_equals_cpu(torch, dtype):
    mask = random_blocks((300, 330), 0.45, 1, 208)
    tensor = torch.from_numpy(mask).to("cuda").to(getattr(torch, dtype))
    got = cls.label_shape_statistics(tensor, label_image=True, **OPTIONS)
    assert got.data_pointer == tensor.data_ptr()
    assert got.bytes_copied_to_device == 0
    assert got.label_image.device == tensor.device and got.label_image.dtype == torch.int32
    want = cpu_table(mask)
    assert_same_table(got, want, dtype)
    np.testing.assert_array_equal(got.label_image.cpu().numpy(), want.label_image.astype(np.int32))


def test_torch_non_contiguous_and_3d(torch):
    mask = random_blocks((24, 40, 50), 0.3, 1, 209)
    tensor = torch.from_numpy(mask).cuda().permute(2, 0, 1)  # no copy: strides passed through
    assert not tensor.is_contiguous()
    got = cls.label_shape_statistics(tensor, fully_connected=True, label_image=True,
                                     label_dtype=torch.int64, **OPTIONS)
    assert got.data_pointer == tensor.data_ptr()
    want = cpu_table(tensor.cpu().numpy(), fully_connected=True)
    assert_same_table(got, want, "permuted 3D tensor")
    assert got.label_image.dtype == torch.int64


def test_torch_non_default_stream(torch):
    mask = random_blocks((1024, 1024), 0.45, 1, 210)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        tensor, host = produced_on_current_stream(torch, mask)
        got = cls.label_shape_statistics(tensor, label_image=True, **OPTIONS)
        counts = torch.bincount(got.label_image.flatten().long())  # after the engine on the same stream
    stream.synchronize()
    want = cpu_table(host)
    assert_same_table(got, want, "current torch stream")
    np.testing.assert_array_equal(counts.cpu().numpy()[1:], want["number_of_pixels"])
    explicit = cls.label_shape_statistics(tensor, stream=stream, **OPTIONS)
    assert_same_table(explicit, want, "explicit torch stream")


def test_torch_requires_grad_and_cpu_refusal(torch):
    tensor = torch.rand(64, 64, device="cuda", requires_grad=True)
    got = cls.label_shape_statistics(tensor, threshold=0.5, **OPTIONS)
    assert_same_table(got, cpu_table(tensor.detach().cpu().numpy() > 0.5), "requires_grad")
    with pytest.raises(ValueError, match="CPU backend"):
        cls.label_shape_statistics(torch.ones(4, 4, dtype=torch.uint8, device="cuda"), backend="cpu")


def test_host_input_on_the_cuda_backend_is_uploaded(torch):
    mask = blobs((200, 220), 30, 211)
    got = cls.label_shape_statistics(mask, backend="cuda", label_image=True, **OPTIONS)
    # The foreground crosses the bus as bits: a byte per 8 pixels of a row.
    rows, width = mask.shape
    assert got.bytes_copied_to_device == rows * ((width + 7) // 8)
    assert_same_table(got, cpu_table(mask), "host input, CUDA backend")


def test_concurrent_gpu_calls(torch):
    masks = [random_blocks((150 + 7 * k, 170), 0.4, 1 + k % 2, 300 + k) for k in range(8)]
    tensors = [torch.from_numpy(m).cuda() for m in masks]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda t: cls.label_shape_statistics(t, **OPTIONS), tensors * 2))
    for k, got in enumerate(results):
        assert_same_table(got, cpu_table(masks[k % len(masks)]), f"thread job {k}")


# ---- feature image, label images and the selection ----------------------------------


@pytest.mark.parametrize("objects", ["components", "label_values", "label_value_components"])
def test_objects_selection_and_intensity_equal_cpu(objects):
    # A label image of 5 values (seed 211) read as labels or as a mask; an
    # int16 feature image (seed 212) is summed exactly on both backends.
    rng = np.random.default_rng(211)
    labels = np.repeat(np.repeat(rng.integers(0, 6, (90, 110)), 2, 0), 2, 1).astype(np.uint16)
    feature = np.random.default_rng(212).integers(-3000, 3000, labels.shape).astype(np.int16)
    kwargs = dict(objects=objects, feature_image=feature, min_size=3, keep_largest=40, sort_by_size=True)
    want = cpu_table(labels, **kwargs)
    got = cls.label_shape_statistics(labels, backend="cuda", label_image=True, **OPTIONS, **kwargs)
    assert_same_table(got, want, f"objects={objects} seeds 211, 212")
    np.testing.assert_array_equal(got.label_image, want.label_image)


def test_real_feature_image_close_to_cpu():
    # float64 values (seeds 213, 214): both backends sum v^k in double, in
    # different orders, so each sum may differ by (n + 64) eps sum |v|^k
    # (Higham 2002, 4.2). The sums need no more; the central moments
    # subtract them, and inherit that error over their own scale, which is
    # tiny for objects of a few close values (kurtosis -2.75 of 4 pixels).
    mask = random_blocks((200, 230), 0.45, 1, 213)
    feature = np.random.default_rng(214).normal(10.0, 3.0, mask.shape)
    want = cls.label_shape_statistics(mask, backend="cpu", feature_image=feature, label_image=True)
    got = cls.label_shape_statistics(mask, backend="cuda", feature_image=feature)
    labels = want.label_image.ravel()
    n = want["number_of_pixels"].astype(float)
    mu = np.abs(want["mean"])

    def power_sum(k):
        return np.bincount(labels, np.abs(feature.ravel()) ** k, minlength=len(n) + 1)[1:]

    s1, s2, s3, s4 = (power_sum(k) for k in (1, 2, 3, 4))
    eps = 2 * (n + 64) * np.finfo(float).eps
    m2 = want["variance"] * np.maximum(n - 1, 1)  # sum (v - mean)^2
    e2 = eps * (s2 + n * mu ** 2)
    e3 = eps * (s3 + 3 * mu * s2 + 3 * mu ** 2 * s1 + n * mu ** 3)
    e4 = eps * (s4 + 4 * mu * s3 + 6 * mu ** 2 * s2 + 4 * mu ** 3 * s1 + n * mu ** 4)
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = np.where(m2 > 0, m2 / n, np.inf)
        tolerance = {
            "variance": e2 / np.maximum(n - 1, 1),
            "standard_deviation": e2 / np.maximum(n - 1, 1) / np.maximum(2 * want["standard_deviation"], 1e-300),
            "skewness": e3 / (n * spread ** 1.5) + 1.5 * np.abs(want["skewness"]) * e2 / (n * spread),
            "kurtosis": e4 / (n * spread ** 2) + 2 * np.abs(want["kurtosis"] + 3) * e2 / (n * spread),
        }
    for name in want:
        if name in tolerance:
            bound = 2 * tolerance[name] + 1e-12
            bad = ~(np.abs(got[name] - want[name]) <= bound)
            assert not bad.any(), (f"seeds 213, 214: {name} of objects {np.flatnonzero(bad)[:5] + 1}: "
                                   f"{got[name][bad][:5]} vs {want[name][bad][:5]} (bounds {bound[bad][:5]})")
        else:
            np.testing.assert_allclose(got[name], want[name], rtol=1e-9, atol=1e-9,
                                       err_msg=f"seeds 213, 214: {name}")


@pytest.mark.parametrize("view", ["dense", "x reversed"])
def test_cupy_feature_image_in_place_equals_cpu(cupy, view):
    # Mask and int16 feature image (seeds 215, 216) both in CUDA memory: read
    # in place (nothing uploaded), every column equal to the CPU backend's.
    mask = random_blocks((180, 210), 0.45, 2, 215)
    feature = np.random.default_rng(216).integers(-1000, 3000, mask.shape).astype(np.int16)
    device_feature = cupy.asarray(feature)
    if view == "x reversed":
        feature = feature[:, ::-1]
        device_feature = device_feature[:, ::-1]
    kwargs = dict(feature_image=feature, histogram_bins=64, min_size=2)
    want = cpu_table(mask, **kwargs)
    kwargs["feature_image"] = device_feature
    got = cls.label_shape_statistics(cupy.asarray(mask), label_image=True, **OPTIONS, **kwargs)
    assert got.bytes_copied_to_device == 0
    assert "median" in got and "center_of_gravity-0" in got
    assert_same_table(got, want, f"CuPy feature image, {view}, seeds 215, 216")


def test_torch_cuda_feature_image_beside_a_host_mask(torch):
    # A host mask and a CUDA feature tensor produced on a side stream just
    # before the call (seeds 217, 218): the run takes the tensor's device and
    # current stream, uploads only the mask.
    mask = random_blocks((300, 256), 0.5, 1, 217)
    values = np.random.default_rng(218).integers(0, 255, mask.shape).astype(np.uint8)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        feature = torch.from_numpy(values).to("cuda", non_blocking=True)
        feature = feature * 1  # work queued on the stream right before the call
        got = cls.label_shape_statistics(mask, label_image=True, feature_image=feature, **OPTIONS)
    stream.synchronize()
    # The foreground crosses the bus as bits: a byte per 8 pixels of a row.
    rows, width = mask.shape
    assert got.bytes_copied_to_device == rows * ((width + 7) // 8)
    assert_same_table(got, cpu_table(mask, feature_image=values), "CUDA feature tensor, host mask, seeds 217, 218")


def test_device_feature_image_and_the_cpu_backend(cupy):
    mask = random_blocks((20, 30), 0.5, 1, 219)
    with pytest.raises(ValueError, match="CPU backend cannot access CUDA device memory"):
        cls.label_shape_statistics(mask, backend="cpu", feature_image=cupy.zeros(mask.shape, cupy.float32))
