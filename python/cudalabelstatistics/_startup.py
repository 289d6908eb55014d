"""CUDA started ahead of the first call, on a thread of its own."""

from __future__ import annotations

import threading
from typing import Optional

from . import _core

_lock = threading.Lock()
_thread: Optional[threading.Thread] = None


def start_cuda(device: Optional[int] = None, *, wait: bool = False) -> None:
    """Starts CUDA ahead of the first call that needs it.

    A process pays CUDA's start-up once: the driver, the device's context,
    the kernels, pinned staging memory and copy threads (0.3 to 0.5 s on an
    H100 machine). By default it runs on a thread of its own and this
    returns at once, so the start-up overlaps whatever the caller does next,
    such as reading the image; the package's next call that may run on the
    GPU (``backend="auto"`` or ``"cuda"``) waits for what is left of it.
    ``wait=True`` starts it on the calling thread instead. Where no CUDA
    device is usable this does nothing (and the calls fall back or raise as
    they would anyway).

    As with any use of CUDA, a process forked after CUDA has started cannot
    use CUDA itself: with ``multiprocessing``, start CUDA in the workers, or
    use the "spawn" start method.

    Parameters
    ----------
    device : int, optional
        The CUDA device to start (default: the current one, normally 0).
    wait : bool
        Return only once CUDA has started.
    """
    if device is not None and (isinstance(device, bool) or not isinstance(device, int) or device < 0):
        raise ValueError(f"device must be None or a device number >= 0, not {device!r}")
    number = -1 if device is None else device
    if wait:
        wait_for_start()
        _core.start_cuda(number)
        return
    global _thread
    with _lock:
        if _thread is not None and _thread.is_alive():
            return  # one start at a time; the first one's device is started
        _thread = threading.Thread(target=_core.start_cuda, args=(number,), name="cudalabelstatistics start-up",
                                   daemon=True)
        _thread.start()


def wait_for_start() -> None:
    """Waits for a start-up that start_cuda() began, if any is still running
    (every thread that calls this waits for it, not only the first)."""
    global _thread
    with _lock:
        thread = _thread
    if thread is None:
        return
    thread.join()
    with _lock:
        if _thread is thread:
            _thread = None
