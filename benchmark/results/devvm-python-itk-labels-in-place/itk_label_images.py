import time, numpy as np, itk, sys
sys.path.insert(0, 'benchmark')
import cudalabelstatistics as cls
from cudalabelstatistics import _inputs
from python_label_images import random_blocks  # run from the repository root
mask = random_blocks((400, 1024, 1024), 0.3, 4, 4005)
image = itk.image_from_array(mask)
cls.label(image, backend="cpu")
orig = _inputs._itk_label_image_view
for name, fn in (("copied", lambda *a: None), ("in place", orig), ("copied", lambda *a: None), ("in place", orig)):
    _inputs._itk_label_image_view = fn
    for dtype in (np.uint32, np.uint64):
        t = []
        for _ in range(3):
            s = time.perf_counter(); labels, n = cls.label(image, label_dtype=dtype, backend="cpu"); t.append(time.perf_counter() - s); del labels
        print(f"{name:9s} {np.dtype(dtype).name}: {', '.join(f'{x*1e3:.0f}' for x in t)} ms ({mask.size/1e6:.0f} Mvox, {n} labels)", flush=True)
