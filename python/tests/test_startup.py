"""start_cuda(): CUDA started ahead of the first call, on a thread of its
own or on the caller's; the calls that may run on the GPU wait for it and
then give the same labels as the CPU backend. Without a GPU it does nothing
and the calls behave as without it."""

import threading
import warnings

import numpy as np
import pytest

from conftest import random_blocks

import cudalabelstatistics as cls
from cudalabelstatistics import _startup

MASK = random_blocks((64, 80), 0.45, 1, 611)  # seed 611


def expected():
    return cls.label(MASK, backend="cpu")


def label_auto():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cls.CpuFallbackWarning)  # no GPU: backend="auto" runs on the CPU
        return cls.label(MASK)


def test_background_start_then_a_call_waits_for_it():
    labels_cpu, count_cpu = expected()
    cls.start_cuda()
    labels, count = label_auto()
    assert _startup._thread is None  # the call waited for the start-up and forgot it
    assert count == count_cpu
    np.testing.assert_array_equal(labels, labels_cpu)


def test_start_on_the_calling_thread_and_twice():
    cls.start_cuda(wait=True)
    cls.start_cuda()
    cls.start_cuda()  # a start while one runs is left to that one
    _startup.wait_for_start()
    labels, count = label_auto()
    labels_cpu, count_cpu = expected()
    assert count == count_cpu
    np.testing.assert_array_equal(labels, labels_cpu)


def test_cpu_calls_do_not_wait(monkeypatch):
    release = threading.Event()
    started = threading.Thread(target=release.wait, daemon=True)
    started.start()
    monkeypatch.setattr(_startup, "_thread", started)  # a start-up that lasts until released
    timer = threading.Timer(5.0, release.set)  # a call that waited would return only then, and fail below
    timer.start()
    labels, count = cls.label(MASK, backend="cpu")
    assert _startup._thread is started and started.is_alive()
    release.set()
    timer.cancel()
    _startup.wait_for_start()
    assert not started.is_alive()
    assert count == expected()[1]


@pytest.mark.parametrize("device", [-1, 1.5, True, "0"])
def test_bad_device(device):
    with pytest.raises(ValueError, match="device"):
        cls.start_cuda(device)


@pytest.mark.gpu
@pytest.mark.skipif(not cls.cuda_available(), reason="no usable CUDA device (or a CPU-only build)")
def test_gpu_labels_after_a_background_start():
    cls.start_cuda(0)
    labels, count = cls.label(MASK, backend="cuda")
    labels_cpu, count_cpu = expected()
    assert count == count_cpu
    np.testing.assert_array_equal(labels, labels_cpu)
