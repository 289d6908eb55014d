"""The result table: a dict of NumPy columns, as scikit-image's regionprops_table."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np


class ShapeStatistics(dict):
    """One row per connected component, as a dict of equally long NumPy arrays.

    Columns are SimpleITK's ``LabelShapeStatisticsImageFilter`` attributes in
    snake_case; vector attributes are split into one column per entry as
    ``skimage.measure.regionprops_table`` does (``centroid-0``, ...,
    ``principal_axes-0-1``). **The entry index of every vector column is ITK's
    physical axis order x, y, z**, as SimpleITK and ITK report it, which is the
    reverse of NumPy's (z, y, x) array axes: ``centroid-0`` is the physical x
    coordinate, ``bbox-0`` the first x index. Columns, for dimension D:

    - ``label``: 1..N, numbered in raster order of each component's first
      pixel (x fastest), as ``sitk.ConnectedComponent`` numbers them (in
      increasing order of the values for ``objects="label_values"``, by
      decreasing size with ``sort_by_size``);
    - ``number_of_pixels``, ``physical_size`` (pixels x spacing product);
    - ``centroid-i`` (physical point);
    - ``bbox-0`` .. ``bbox-(2D-1)``: SimpleITK's ``GetBoundingBox``: the start
      index (x, y[, z], ITK index space, so the region index of an itk.Image is
      included) followed by the size (x, y[, z]). This is not scikit-image's
      ``bbox`` (min row, min col, max row, max col, exclusive);
    - ``number_of_pixels_on_border``, ``perimeter_on_border``;
    - ``perimeter``, ``roundness`` (when ``perimeter=True``);
    - ``principal_moments-i`` (ascending), ``principal_axes-i-j`` (row i is the
      unit axis of moment i, component j; a proper rotation);
    - ``elongation``, ``flatness``, ``equivalent_spherical_radius``,
      ``equivalent_spherical_perimeter``, ``equivalent_ellipsoid_diameter-i``;
    - ``feret_diameter`` (when ``feret_diameter=True``);
    - ``perimeter_on_border_ratio`` (when ``perimeter=True``);
    - ``oriented_bounding_box_origin-i``, ``oriented_bounding_box_size-i``
      (when ``oriented_bounding_box=True``; the box's direction is
      ``principal_axes``).
    - ``label_value`` (``objects="label_values"`` or
      ``"label_value_components"``): the label image's value of each object;
    - ``source_label`` (a selection: ``min_size``, ``max_size``,
      ``keep_largest``, ``sort_by_size``): the object's number without it;
    - with ``feature_image``: ``minimum``, ``maximum``, ``mean``, ``sum``,
      ``standard_deviation``, ``variance``, ``median``, ``skewness``,
      ``kurtosis``, ``minimum_index-i``, ``maximum_index-i`` (ITK index),
      ``center_of_gravity-i`` (physical point),
      ``weighted_principal_moments-i``, ``weighted_principal_axes-i-j``,
      ``weighted_elongation``, ``weighted_flatness``, as SimpleITK's
      ``LabelIntensityStatisticsImageFilter`` (its median with
      ``histogram_bins=128``; the default is ITK's StatisticsLabelMapFilter's).

    The options decide the columns: a table without rows has the columns of
    one with rows.

    Attributes besides the columns: ``label_image`` (or None), ``backend``
    ("cpu" or "cuda"), ``times`` (milliseconds by stage), ``dimension``,
    ``spacing``/``origin``/``direction``/``region_index`` (ITK order),
    ``lines`` (run-length lines, when requested).
    """

    def __init__(self, columns: Dict[str, np.ndarray], *, dimension: int, backend: str, times: Dict[str, float],
                 spacing: Tuple[float, ...], origin: Tuple[float, ...], direction: np.ndarray,
                 region_index: Tuple[int, ...], size: Tuple[int, ...], label_image: Any = None,
                 lines: Optional[Tuple[np.ndarray, np.ndarray]] = None, details: Optional[Dict[str, Any]] = None):
        super().__init__(columns)
        self.dimension = dimension
        self.backend = backend
        self.times = times
        self.spacing = spacing
        self.origin = origin
        self.direction = direction
        self.region_index = region_index
        self.size = size  # x, y[, z]
        self.label_image = label_image
        self._lines = lines
        self._details = details or {}

    @property
    def number_of_labels(self) -> int:
        """The number of components (rows)."""
        return len(self["label"])

    @property
    def lines(self) -> Optional[Tuple[np.ndarray, np.ndarray]]:
        """(runs, offsets) when computed with ``lines=True``: runs is an (R, 4)
        int32 array of (x, y, z, length) in buffer coordinates, grouped by label;
        the runs of label L are runs[offsets[L-1]:offsets[L]]."""
        return self._lines

    @property
    def data_pointer(self) -> int:
        """The address of the pixel data the engine read (for zero-copy checks)."""
        return self._details.get("data_pointer", 0)

    @property
    def bytes_copied_to_device(self) -> int:
        """Bytes of the image copied from the host to the GPU (of a binary
        mask its foreground bits, one byte per 8 pixels of a row): 0 for
        device input (read in place) and the CPU backend; -1 if the backend
        did not say."""
        return self._details.get("bytes_copied_to_device", -1)

    def to_pandas(self):
        """The table as a pandas.DataFrame (one column per key)."""
        import pandas as pd

        return pd.DataFrame(dict(self))

    def to_itk_label_map(self):
        """An ``itk.LabelMap`` of ``itk.StatisticsLabelObject`` (ITK's Python
        ``LM2``/``LM3`` type) with one label object per row: its run-length
        lines and the shape attributes of this table. Needs ``itk`` and the
        table computed with ``lines=True``."""
        from ._itk_label_map import to_itk_label_map

        return to_itk_label_map(self)

    def __repr__(self) -> str:
        return (f"ShapeStatistics({self.number_of_labels} labels, {self.dimension}D, backend={self.backend!r}, "
                f"columns={list(self.keys())})")
