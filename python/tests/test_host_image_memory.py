"""Host label images of 64 MiB and more come from the process's pool of host
image memory: a block goes back when the array and its views are gone, the
next label image of about its size reuses it (written over entirely: the
labels equal scikit-image's even where the block held another image's
labels), the pool can be turned off, and release_cached_memory() empties it.
On a GPU, a block used twice is page-locked and the engine writes the third
image by DMA: the labels equal the CPU backend's (marked gpu)."""

import gc

import numpy as np
import pytest

from conftest import random_blocks

import cudalabelstatistics as cls

# 4096 x 4096 32-bit labels: exactly the pool's 64 MiB minimum.
SHAPE = (4096, 4096)
BLOCK_BYTES = SHAPE[0] * SHAPE[1] * 4


@pytest.fixture(autouse=True)
def empty_pool():
    """Each test starts with no idle block and the default limit, and leaves
    the pool so."""
    limit = cls.host_image_idle_limit()
    gc.collect()
    cls.release_cached_memory()
    yield
    cls.set_host_image_idle_limit(limit)
    gc.collect()
    cls.release_cached_memory()


def reference(mask, connectivity=1):
    measure = pytest.importorskip("skimage.measure")  # the GPU machine has none; CI has it
    return measure.label(mask, connectivity=connectivity, background=0).astype(np.uint32)


def address(array):
    return array.__array_interface__["data"][0]


def assert_labels(labels, mask, count, seed, connectivity=1):
    expected = reference(mask, connectivity)
    assert count == expected.max(), f"seed={seed}"
    mismatches = np.flatnonzero(labels != expected)
    assert mismatches.size == 0, f"seed={seed}: {mismatches.size} labels differ, first at {mismatches[:5]}"


def test_a_large_label_image_is_a_pool_block_given_back_when_gone():
    seed = 1101
    mask = random_blocks(SHAPE, 0.4, 4, seed)
    before = cls.host_image_memory_use()
    labels, count = cls.label(mask, backend="cpu")
    held = cls.host_image_memory_use()
    assert held["in_use_bytes"] - before["in_use_bytes"] >= BLOCK_BYTES, f"seed={seed}: {held}"
    assert labels.dtype == np.uint32 and labels.shape == SHAPE and labels.flags.c_contiguous
    assert labels.flags.writeable and labels.flags.owndata is False  # the capsule owns the block
    assert_labels(labels, mask, count, seed)
    view = labels[::2, 1:]  # a view keeps the block
    del labels
    gc.collect()
    assert cls.host_image_memory_use()["in_use_bytes"] == held["in_use_bytes"], f"seed={seed}"
    del view
    gc.collect()
    after = cls.host_image_memory_use()
    assert after["in_use_bytes"] == before["in_use_bytes"], f"seed={seed}: {after}"
    assert after["idle_bytes"] - before["idle_bytes"] >= BLOCK_BYTES, f"seed={seed}: {after}"


def test_a_reused_block_is_written_over_entirely():
    # The first image leaves label 1 in every pixel of the block; the second,
    # sparse one must read 0 wherever it has background.
    full = np.ones(SHAPE, np.uint8)
    labels, count = cls.label(full, backend="cpu")
    assert count == 1 and labels.min() == 1
    first = address(labels)
    del labels
    gc.collect()
    for seed, connectivity in ((1102, 1), (1103, 2)):
        mask = random_blocks(SHAPE, 0.25, 1, seed)
        labels, count = cls.label(mask, connectivity=connectivity, backend="cpu")
        assert address(labels) == first, f"seed={seed}: the idle block was not reused"
        assert_labels(labels, mask, count, seed, connectivity)
        del labels
        gc.collect()


def test_64_bit_labels_and_statistics_label_images_use_the_pool():
    seed = 1104
    mask = random_blocks((2048, 4096), 0.5, 2, seed)  # 64 MiB of 64-bit labels
    labels, count = cls.label(mask, label_dtype=np.uint64, backend="cpu")
    assert labels.dtype == np.uint64
    assert cls.host_image_memory_use()["in_use_bytes"] >= labels.nbytes
    assert_labels(labels, mask, count, seed)
    first = address(labels)
    del labels
    gc.collect()
    table = cls.label_shape_statistics(mask, backend="cpu", label_image=True, label_dtype=np.uint64)
    assert address(table.label_image) == first, f"seed={seed}"
    assert_labels(table.label_image, mask, table.number_of_labels, seed)


def test_small_label_images_and_a_pool_turned_off_are_plain_allocations():
    seed = 1105
    small = random_blocks((512, 512), 0.4, 2, seed)
    before = cls.host_image_memory_use()
    labels, count = cls.label(small, backend="cpu")
    assert labels.flags.owndata and cls.host_image_memory_use() == before
    assert_labels(labels, small, count, seed)

    cls.set_host_image_idle_limit(0)
    assert cls.host_image_idle_limit() == 0
    mask = random_blocks(SHAPE, 0.4, 4, seed)
    labels, count = cls.label(mask, backend="cpu")
    assert labels.flags.owndata, "an array of the pool although it is off"
    assert cls.host_image_memory_use()["in_use_bytes"] == before["in_use_bytes"]
    assert_labels(labels, mask, count, seed)


def test_release_cached_memory_gives_the_idle_blocks_back():
    labels, _ = cls.label(np.ones(SHAPE, np.uint8), backend="cpu")
    del labels
    gc.collect()
    assert cls.host_image_memory_use()["idle_bytes"] >= BLOCK_BYTES
    cls.release_cached_memory()
    assert cls.host_image_memory_use()["idle_bytes"] == 0


def test_the_idle_limit_is_checked():
    with pytest.raises(ValueError, match="nbytes must be >= 0"):
        cls.set_host_image_idle_limit(-1)
    with pytest.raises(TypeError):
        cls.set_host_image_idle_limit(1.5)


@pytest.mark.gpu
@pytest.mark.skipif(not cls.cuda_available(), reason="no usable CUDA device (or a CPU-only build)")
@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_the_gpu_writes_a_page_locked_block_by_dma(dtype):
    # A block is page-locked after its second use, between engine runs; the
    # third image is then copied into it directly (64-bit labels widened on
    # the device slab by slab).
    shape = SHAPE if dtype == np.uint32 else (2048, 4096)
    addresses = []
    for seed in (1106, 1107, 1108):
        mask = random_blocks(shape, 0.45, 1, seed)
        labels, count = cls.label(mask, connectivity=2, label_dtype=dtype, backend="cuda")
        expected = np.empty(shape, dtype)  # out= is never a pool block
        _, expected_count = cls.label(mask, connectivity=2, out=expected, backend="cpu")
        assert count == expected_count, f"seed={seed}"
        assert np.array_equal(labels, expected), f"seed={seed}: {np.count_nonzero(labels != expected)} labels differ"
        addresses.append(address(labels))
        del labels, expected
        gc.collect()
        cls._core.wait_for_host_image_pinning()
    assert addresses[0] == addresses[1] == addresses[2]
    assert cls.host_image_memory_use()["pinned_bytes"] >= 4 * shape[0] * shape[1]


def test_cpu_torch_label_images_use_the_pool():
    torch = pytest.importorskip("torch")
    seed = 1109
    mask = random_blocks(SHAPE, 0.4, 2, seed)
    before = cls.host_image_memory_use()
    labels, count = cls.label(torch.from_numpy(mask), backend="cpu")
    assert labels.dtype == torch.int32 and labels.device.type == "cpu" and tuple(labels.shape) == SHAPE
    assert cls.host_image_memory_use()["in_use_bytes"] - before["in_use_bytes"] >= BLOCK_BYTES, f"seed={seed}"
    assert_labels(labels.numpy().view(np.uint32), mask, count, seed)
    del labels
    gc.collect()
    assert cls.host_image_memory_use()["in_use_bytes"] == before["in_use_bytes"], f"seed={seed}"


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_itk_label_images_are_written_in_place(dtype):
    # For itk input the engine writes into the itk.Image it returns (a
    # writable view of its buffer), not into an array copied into one: no
    # pool block is taken, and the image carries the input's geometry.
    itk = pytest.importorskip("itk")
    seed = 1110
    mask = random_blocks(SHAPE, 0.4, 4, seed)
    image = itk.image_from_array(mask)
    image.SetSpacing((0.7, 1.3))
    image.SetOrigin((-4.0, 2.5))
    region = image.GetLargestPossibleRegion()
    region.SetIndex((3, -2))
    image.SetRegions(region)
    before = cls.host_image_memory_use()
    labels, count = cls.label(image, label_dtype=dtype, backend="cpu")
    assert cls.host_image_memory_use() == before, f"seed={seed}: a pool block was taken"
    assert isinstance(labels, itk.Image)
    assert itk.array_view_from_image(labels).dtype == dtype
    assert tuple(labels.GetSpacing()) == (0.7, 1.3) and tuple(labels.GetOrigin()) == (-4.0, 2.5)
    assert tuple(labels.GetLargestPossibleRegion().GetIndex()) == (3, -2)
    assert_labels(itk.array_from_image(labels).astype(np.uint32), mask, count, seed)
    table = cls.label_shape_statistics(image, backend="cpu", label_image=True, label_dtype=dtype)
    assert cls.host_image_memory_use() == before, f"seed={seed}"
    assert_labels(itk.array_from_image(table.label_image).astype(np.uint32), mask, table.number_of_labels, seed)
