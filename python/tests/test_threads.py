"""Concurrent calls from several threads, and the GIL released during the work."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from conftest import random_blocks

import cudalabelstatistics as cls


def _run(mask, fully):
    return cls.label_shape_statistics(mask, fully_connected=fully, backend="cpu", label_image=True,
                                      feret_diameter=True, threads=1)


def test_concurrent_calls_give_the_sequential_results():
    masks = [random_blocks((40 + 3 * k, 50 + k), 0.3 + 0.05 * (k % 5), 1 + k % 3, 100 + k) for k in range(12)]
    jobs = [(mask, k % 2 == 1) for k, mask in enumerate(masks)] * 3
    expected = [_run(mask, fully) for mask, fully in jobs]
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda job: _run(*job), jobs))
    for k, (got, want) in enumerate(zip(results, expected)):
        assert list(got) == list(want)
        for name in want:
            np.testing.assert_array_equal(got[name], want[name], err_msg=f"job {k} ({name})")
        np.testing.assert_array_equal(got.label_image, want.label_image, err_msg=f"job {k}")


def test_the_gil_is_released_while_the_engine_runs():
    mask = random_blocks((2000, 2000), 0.5, 1, 7)
    start = time.perf_counter()
    _run(mask, False)
    duration = time.perf_counter() - start  # one call, for scale
    done = threading.Event()
    worker = threading.Thread(target=lambda: (_run(mask, False), done.set()))
    ticks = []
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    gaps = np.diff(ticks) if len(ticks) > 1 else np.array([duration])
    # With the GIL held for the whole call, this thread would stall for about `duration`.
    assert len(ticks) > 10, f"the main thread ran {len(ticks)} times during a {duration:.3f} s call"
    assert gaps.max() < 0.5 * duration, f"the main thread stalled {gaps.max():.3f} s of a {duration:.3f} s call"


def test_results_do_not_depend_on_earlier_calls():
    # Engines keep their last result table and reuse it: a small image after a
    # large one, and the same after the cache was given back, give equal tables.
    large = random_blocks((300, 280), 0.45, 1, 7)
    small = random_blocks((30, 20), 0.5, 2, 8)
    cls.release_cached_memory()
    fresh = _run(small, False)
    _run(large, True)
    after_large = _run(small, False)
    cls.release_cached_memory()
    after_release = _run(small, False)
    for name in fresh:
        np.testing.assert_array_equal(after_large[name], fresh[name], err_msg=name)
        np.testing.assert_array_equal(after_release[name], fresh[name], err_msg=name)


def test_label_calls_from_threads_and_between_table_calls():
    # label() borrows the same pooled engines as label_shape_statistics: a
    # labels-only run between full ones, in any thread, changes neither.
    masks = [random_blocks((60 + 5 * k, 70), 0.4, 1 + k % 2, 120 + k) for k in range(8)]
    jobs = [(mask, k % 2 == 1) for k, mask in enumerate(masks)] * 3
    expected = [cls.label(mask, connectivity=2 if full else 1, backend="cpu", threads=1) for mask, full in jobs]

    def job(k):
        mask, full = jobs[k]
        if k % 3 == 0:
            table = _run(mask, full)
            return table.label_image, table.number_of_labels
        return cls.label(mask, connectivity=2 if full else 1, backend="cpu", threads=1)

    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(job, range(len(jobs))))
    for k, ((labels, count), (want, want_count)) in enumerate(zip(results, expected)):
        assert count == want_count, f"job {k}"
        np.testing.assert_array_equal(labels, want, err_msg=f"job {k}")
