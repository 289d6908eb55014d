"""label() on CUDA: CuPy arrays and PyTorch tensors in, labels on the same
device in the same framework (written there by the engine), equal to the NumPy
CPU result of label() itself, so these tests need no scikit-image; out= on the
device, the caller's stream, host input on the CUDA backend. Skipped without a
usable GPU (and per framework without CuPy or PyTorch)."""

import numpy as np
import pytest

from conftest import STRIDED_VIEWS, blobs, produced_on_current_stream, random_blocks

import cudalabelstatistics as cls

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not cls.cuda_available(), reason="no usable CUDA device (or a CPU-only build)"),
]

MASKS = {
    "2D random seed=501": lambda: random_blocks((257, 301), 0.45, 1, 501),
    "2D blobs seed=502": lambda: blobs((300, 280), 40, 502, thin=True),
    "3D random seed=503": lambda: random_blocks((33, 65, 70), 0.3, 2, 503),
    "3D random seed=504": lambda: random_blocks((40, 48, 64), 0.3, 1, 504),
}


def cpu_label(mask, connectivity=1, **kwargs):
    return cls.label(np.ascontiguousarray(mask), connectivity=connectivity, backend="cpu", **kwargs)


# ---- CuPy -------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(MASKS))
@pytest.mark.parametrize("full", [False, True], ids=["connectivity=1", "connectivity=ndim"])
def test_cupy_labels_on_the_device_equal_cpu(cupy, name, full):
    mask = MASKS[name]()
    connectivity = mask.ndim if full else 1
    device_mask = cupy.asarray(mask)
    labels, count = cls.label(device_mask, connectivity=connectivity)
    assert isinstance(labels, cupy.ndarray) and labels.device.id == device_mask.device.id
    assert labels.dtype == np.uint32 and labels.flags.c_contiguous
    want, want_count = cpu_label(mask, connectivity)
    assert count == want_count, name
    np.testing.assert_array_equal(cupy.asnumpy(labels), want, err_msg=name)


@pytest.mark.parametrize("algorithm", ["default", "HA", "FLSL", "DLP", "LE_Late", "TM_Early"])
def test_cupy_every_kind_of_algorithm(cupy, algorithm):
    mask = random_blocks((150, 170), 0.45, 1, 505)
    labels, count = cls.label(cupy.asarray(mask), connectivity=2, algorithm=algorithm)
    want, want_count = cpu_label(mask, 2)
    assert count == want_count
    np.testing.assert_array_equal(cupy.asnumpy(labels), want, err_msg=algorithm)


@pytest.mark.parametrize("view", list(STRIDED_VIEWS))
def test_cupy_strided_views(cupy, view):
    array = STRIDED_VIEWS[view](cupy.asarray(random_blocks((200, 240), 0.5, 2, 506)),
                                cupy.asarray(random_blocks((20, 30, 40), 0.3, 1, 507)))
    assert not array.flags.c_contiguous
    labels, count = cls.label(array)
    want, want_count = cpu_label(cupy.asnumpy(array))
    assert count == want_count
    np.testing.assert_array_equal(cupy.asnumpy(labels), want, err_msg=view)


def test_cupy_out_uint64_and_threshold(cupy):
    values = np.random.default_rng(508).normal(size=(128, 160)).astype(np.float32)
    want, want_count = cpu_label(values > 0.3, 2)
    out = cupy.full(values.shape, 7, dtype=cupy.uint64)
    labels, count = cls.label(cupy.asarray(values), threshold=0.3, connectivity=2, out=out)
    assert labels is out and count == want_count
    np.testing.assert_array_equal(cupy.asnumpy(out), want)
    labels, _ = cls.label(cupy.asarray(values), threshold=0.3, connectivity=2, label_dtype="uint64")
    assert labels.dtype == np.uint64
    np.testing.assert_array_equal(cupy.asnumpy(labels), want)


def test_cupy_out_in_the_wrong_memory_and_cpu_refusal(cupy):
    mask = random_blocks((32, 40), 0.5, 1, 509)
    with pytest.raises(ValueError, match="image's memory \\(CUDA device"):
        cls.label(cupy.asarray(mask), out=np.zeros(mask.shape, np.uint32))
    with pytest.raises(ValueError, match="image's memory \\(host memory"):
        cls.label(mask, backend="cuda", out=cupy.zeros(mask.shape, cupy.uint32))
    with pytest.raises(ValueError, match="C-contiguous"):
        cls.label(cupy.asarray(mask), out=cupy.zeros(mask.shape, cupy.uint32, order="F"))
    with pytest.raises(ValueError, match="CPU backend cannot access CUDA device memory"):
        cls.label(cupy.asarray(mask), backend="cpu")


def test_cupy_non_default_stream(cupy):
    mask = random_blocks((512, 512), 0.4, 1, 510)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        # Produced on the stream just before the call: the engine must run after it.
        device_mask = (cupy.asarray(mask) * 3 + 1) % 2
        labels, count = cls.label(device_mask)
        labels_on_stream = labels.copy()  # queued after the engine's writes on the same stream
    stream.synchronize()
    want, want_count = cpu_label((mask * 3 + 1) % 2)
    assert count == want_count
    np.testing.assert_array_equal(cupy.asnumpy(labels_on_stream), want)
    explicit, _ = cls.label(device_mask, stream=stream)
    np.testing.assert_array_equal(cupy.asnumpy(explicit), want)


# ---- PyTorch ------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["uint8", "bool", "int32", "int64"])
def test_torch_labels_on_the_device_equal_cpu(torch, dtype):
    mask = random_blocks((300, 330), 0.45, 1, 511)
    tensor = torch.from_numpy(mask).to("cuda").to(getattr(torch, dtype))
    labels, count = cls.label(tensor)
    assert isinstance(labels, torch.Tensor) and labels.device == tensor.device and labels.dtype == torch.int32
    want, want_count = cpu_label(mask)
    assert count == want_count
    np.testing.assert_array_equal(labels.cpu().numpy(), want.astype(np.int32))


def test_torch_permuted_3d_out_int64(torch):
    mask = random_blocks((24, 40, 50), 0.3, 1, 512)
    tensor = torch.from_numpy(mask).cuda().permute(2, 0, 1)  # no copy: strides passed through
    assert not tensor.is_contiguous()
    want, want_count = cpu_label(tensor.cpu().numpy(), 3)
    out = torch.full(tensor.shape, -1, dtype=torch.int64, device="cuda")
    labels, count = cls.label(tensor, connectivity=3, out=out)
    assert labels is out and count == want_count
    np.testing.assert_array_equal(out.cpu().numpy(), want)
    labels, _ = cls.label(tensor, connectivity=3, label_dtype=torch.int64)
    assert labels.dtype == torch.int64
    np.testing.assert_array_equal(labels.cpu().numpy(), want)
    with pytest.raises(ValueError, match="image's memory"):
        cls.label(tensor, out=torch.empty(tensor.shape, dtype=torch.int32))


def test_torch_non_default_stream(torch):
    mask = random_blocks((1024, 1024), 0.45, 1, 513)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        tensor, host = produced_on_current_stream(torch, mask)
        labels, count = cls.label(tensor)
        sizes = torch.bincount(labels.flatten().long())  # after the engine on the same stream
    stream.synchronize()
    want, want_count = cpu_label(host)
    assert count == want_count
    np.testing.assert_array_equal(sizes.cpu().numpy(), np.bincount(want.ravel()))
    explicit, _ = cls.label(tensor, stream=stream)
    np.testing.assert_array_equal(explicit.cpu().numpy(), want)


def test_host_input_on_the_cuda_backend():
    mask = blobs((200, 220), 30, 514)
    labels, count = cls.label(mask, backend="cuda", connectivity=2)
    assert isinstance(labels, np.ndarray)
    want, want_count = cpu_label(mask, 2)
    assert count == want_count
    np.testing.assert_array_equal(labels, want)
