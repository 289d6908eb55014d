"""Shared test helpers: generated masks (fixed seeds, printed on failure),
named strided views, the CuPy and PyTorch (CUDA) fixtures of the GPU tests,
the SimpleITK and itk references, and the column comparison with its
tolerances.

Tolerances (see `compare_with_reference`): integer columns exactly; real
columns within 1e-9 relative to their scale. Where ITK's own rounding decides
a value, the tolerance grows by ITK's rounding noise, and only there: ITK sums
p p^T over physical points and subtracts c c^T, which leaves noise of about
eps x |p|^2 in each second moment (we use the exact integer moments). So
- principal moments compare within 1e-9 of the object's largest moment plus
  that noise;
- elongation, flatness and the ellipsoid diameters, which divide by a moment,
  compare within 1e-9 + noise / moment, and not at all where that moment is
  within 100 x the noise of 0 (ITK divides its noise there: a one-pixel-thick
  object, whose exact moment is 0);
- a principal axis is compared where its moment is apart from the others; its
  sign is ITK's except where the exact covariance makes a sign choice of the
  eigen solver a tie: an off-diagonal moment exactly 0 (an axis-aligned
  object) or two equal diagonal moments (a symmetric one). ITK's rounding
  noise breaks the tie there, so the axis is compared up to its sign and the
  oriented box as a set of corners; the last axis, whose sign ITK sets from
  the determinant of all of them, likewise when another axis is not compared.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

EPS = np.finfo(float).eps
RTOL = 1e-9


# ---- masks --------------------------------------------------------------------------


def random_blocks(shape, density, block, seed):
    """A random binary mask whose block x block (x block) cells share one draw."""
    rng = np.random.default_rng(seed)
    coarse = rng.random(tuple(-(-s // block) for s in shape)) < density
    mask = coarse
    for axis in range(len(shape)):
        mask = np.repeat(mask, block, axis=axis)
    return mask[tuple(slice(0, s) for s in shape)].astype(np.uint8)


def blobs(shape, count, seed, thin=False):
    """Real-looking objects: random ellipses / ellipsoids at random angles,
    some one pixel thick (lines and planes) when thin is set."""
    rng = np.random.default_rng(seed)
    d = len(shape)
    grid = np.stack(np.meshgrid(*[np.arange(s) for s in shape], indexing="ij"), -1).astype(float)
    mask = np.zeros(shape, np.uint8)
    for _ in range(count):
        centre = rng.uniform(0, np.array(shape))
        rotation = np.linalg.qr(rng.normal(size=(d, d)))[0]
        radii = rng.uniform(1.0, max(2.0, min(shape) / 8), d)
        local = (grid - centre) @ rotation
        mask[((local / radii) ** 2).sum(-1) <= 1] = 1
    if thin:
        for _ in range(count // 2 + 1):
            axis = rng.integers(d)
            start = [int(rng.integers(s)) for s in shape]
            index = list(start)
            index[axis] = slice(int(rng.integers(shape[axis] // 2)), None)
            mask[tuple(index)] = 1
    return mask


def rotation_direction(d, seed):
    """A proper rotation at generic angles (no exact zeros)."""
    rng = np.random.default_rng(seed)
    q, r = np.linalg.qr(rng.normal(size=(d, d)))
    q = q * np.sign(np.diag(r))
    if np.linalg.det(q) < 0:
        q[:, 0] = -q[:, 0]
    return q


@dataclasses.dataclass
class Case:
    name: str
    mask: np.ndarray
    fully_connected: bool = False
    spacing: tuple = None
    origin: tuple = None
    direction: np.ndarray = None

    def geometry(self):
        d = self.mask.ndim
        spacing = self.spacing or (1.0,) * d
        origin = self.origin or (0.0,) * d
        direction = np.eye(d) if self.direction is None else np.asarray(self.direction, float)
        return spacing, origin, direction


# ---- GPU frameworks (test_gpu.py, test_label_gpu.py) ----------------------------------


@pytest.fixture(scope="session")
def cupy():
    """CuPy, or the test is skipped."""
    return pytest.importorskip("cupy")


@pytest.fixture(scope="session")
def torch():
    """PyTorch with a CUDA device, or the test is skipped."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no CUDA device")
    return torch


def produced_on_current_stream(torch, mask):
    """The mask moved to the GPU and inverted by work queued on PyTorch's
    current stream, not yet done when this returns (a call that reads the
    tensor must be ordered after it), and the same inversion on the host."""
    tensor = torch.from_numpy(mask).to("cuda", non_blocking=True)
    return (tensor.int() * 5 + 1) % 2, (mask.astype(np.int32) * 5 + 1) % 2


# ---- strided views ----------------------------------------------------------------

# Views of a 2D and a 3D NumPy or CuPy array that are not C-contiguous (the
# Fortran one is contiguous in the other order), by name: the engine reads
# them in place. The bases need at least 12 x 4 x 4 and 4 x 50 pixels.
STRIDED_VIEWS = {
    "every other column": lambda base2, base3: base2[:, ::2],
    "reversed rows and columns": lambda base2, base3: base2[::-1, ::-1],
    "transposed": lambda base2, base3: base2.T,
    "sliced 3D": lambda base2, base3: base3[1:12:2, 3:, ::3],
    "reversed 3D": lambda base2, base3: base3[::-1, :, ::-1],
    "Fortran order 3D": lambda base2, base3: base3.T.copy().T,  # NumPy's or CuPy's
    "negative step 2": lambda base2, base3: base2[::-2, 5:50],
    "permuted 3D": lambda base2, base3: base3.transpose(2, 0, 1),
}


# ---- references -------------------------------------------------------------------


def sitk_reference(case: Case, feret=True, obb=True):
    """Columns in our naming from sitk.ConnectedComponent + LabelShapeStatisticsImageFilter
    (the test is skipped where SimpleITK is not installed, as on the GPU machine)."""
    sitk = pytest.importorskip("SimpleITK")

    spacing, origin, direction = case.geometry()
    image = sitk.GetImageFromArray((case.mask != 0).astype(np.uint8))
    image.SetSpacing([float(s) for s in spacing])
    image.SetOrigin([float(o) for o in origin])
    image.SetDirection([float(v) for v in direction.ravel()])
    labels = sitk.ConnectedComponent(image, case.fully_connected)
    stats = sitk.LabelShapeStatisticsImageFilter()
    stats.SetComputePerimeter(True)
    stats.SetComputeFeretDiameter(feret)
    stats.SetComputeOrientedBoundingBox(obb)
    stats.Execute(labels)
    getters = {
        "number_of_pixels": stats.GetNumberOfPixels,
        "physical_size": stats.GetPhysicalSize,
        "centroid": stats.GetCentroid,
        "bbox": stats.GetBoundingBox,
        "number_of_pixels_on_border": stats.GetNumberOfPixelsOnBorder,
        "perimeter_on_border": stats.GetPerimeterOnBorder,
        "perimeter": stats.GetPerimeter,
        "roundness": stats.GetRoundness,
        "principal_moments": stats.GetPrincipalMoments,
        "principal_axes": stats.GetPrincipalAxes,
        "elongation": stats.GetElongation,
        "flatness": stats.GetFlatness,
        "equivalent_spherical_radius": stats.GetEquivalentSphericalRadius,
        "equivalent_spherical_perimeter": stats.GetEquivalentSphericalPerimeter,
        "equivalent_ellipsoid_diameter": stats.GetEquivalentEllipsoidDiameter,
        "perimeter_on_border_ratio": stats.GetPerimeterOnBorderRatio,
    }
    if feret:
        getters["feret_diameter"] = stats.GetFeretDiameter
    if obb:
        getters["oriented_bounding_box_origin"] = stats.GetOrientedBoundingBoxOrigin
        getters["oriented_bounding_box_size"] = stats.GetOrientedBoundingBoxSize
    rows = {"label": list(stats.GetLabels())}
    for name, getter in getters.items():
        rows[name] = [getter(label) for label in rows["label"]]
    return split_columns(rows, case.mask.ndim), sitk.GetArrayFromImage(labels)


def itk_reference(image, fully_connected, feret=True, obb=True):
    """Columns from itk.BinaryImageToShapeLabelMapFilter (foreground value 1)."""
    import itk

    label_map = itk.binary_image_to_shape_label_map_filter(
        image, input_foreground_value=1, fully_connected=fully_connected, compute_perimeter=True,
        compute_feret_diameter=feret, compute_oriented_bounding_box=obb)
    d = image.GetImageDimension()
    rows = {}
    objects = [label_map.GetNthLabelObject(i) for i in range(label_map.GetNumberOfLabelObjects())]
    objects.sort(key=lambda o: o.GetLabel())

    def add(name, value):
        rows.setdefault(name, []).append(value)

    for o in objects:
        add("label", o.GetLabel())
        add("number_of_pixels", o.GetNumberOfPixels())
        add("physical_size", o.GetPhysicalSize())
        add("centroid", tuple(o.GetCentroid()))
        box = o.GetBoundingBox()
        add("bbox", tuple(box.GetIndex()) + tuple(box.GetSize()))
        add("number_of_pixels_on_border", o.GetNumberOfPixelsOnBorder())
        add("perimeter_on_border", o.GetPerimeterOnBorder())
        add("perimeter", o.GetPerimeter())
        add("roundness", o.GetRoundness())
        add("principal_moments", tuple(o.GetPrincipalMoments()))
        add("principal_axes", tuple(np.asarray(itk.array_from_matrix(o.GetPrincipalAxes())).ravel()))
        add("elongation", o.GetElongation())
        add("flatness", o.GetFlatness())
        add("equivalent_spherical_radius", o.GetEquivalentSphericalRadius())
        add("equivalent_spherical_perimeter", o.GetEquivalentSphericalPerimeter())
        add("equivalent_ellipsoid_diameter", tuple(o.GetEquivalentEllipsoidDiameter()))
        add("perimeter_on_border_ratio", o.GetPerimeterOnBorderRatio())
        if feret:
            add("feret_diameter", o.GetFeretDiameter())
        if obb:
            add("oriented_bounding_box_origin", tuple(o.GetOrientedBoundingBoxOrigin()))
            add("oriented_bounding_box_size", tuple(o.GetOrientedBoundingBoxSize()))
    lines = [[(tuple(o.GetLine(i).GetIndex()), o.GetLine(i).GetLength()) for i in range(o.GetNumberOfLines())]
             for o in objects]
    if not rows:
        return {}, lines
    return split_columns(rows, d), lines


def split_columns(rows, d):
    """Per-label attribute lists to our split columns (name-i, name-i-j)."""
    columns = {}
    for name, values in rows.items():
        first = values[0] if values else 0
        if isinstance(first, (tuple, list)):
            width = len(first)
            if name == "principal_axes":
                for i, j in itertools.product(range(d), range(d)):
                    columns[f"{name}-{i}-{j}"] = np.array([v[i * d + j] for v in values], float)
            else:
                for i in range(width):
                    columns[f"{name}-{i}"] = np.array([v[i] for v in values])
        else:
            columns[name] = np.array(values)
    return columns


# ---- comparison ------------------------------------------------------------------

INTEGER_COLUMNS = ("label", "number_of_pixels", "number_of_pixels_on_border")


@dataclasses.dataclass
class ComparisonReport:
    objects: int = 0
    degenerate_skips: int = 0  # elongation/flatness/ellipsoid values where ITK divides noise
    axes_up_to_sign: int = 0  # ties broken by ITK's noise: sign compared loosely
    axes_skipped: int = 0  # equal moments: any axes are right


def exact_covariances(mask, labels, count, d):
    """The exact index-space covariance K of each component (Python integers)."""
    coordinates = np.nonzero(labels)
    values = labels[coordinates]
    order = np.argsort(values, kind="stable")
    points = np.stack([c[order] for c in coordinates[::-1]], 1).astype(object)  # x, y, z as Python ints
    bounds = np.searchsorted(values[order], np.arange(1, count + 2))
    result = []
    for label in range(count):
        p = points[bounds[label]:bounds[label + 1]]
        n = len(p)
        s = p.sum(0)
        m = np.array([[n * int((p[:, i] * p[:, j]).sum()) - int(s[i]) * int(s[j]) for j in range(d)]
                      for i in range(d)], dtype=object)
        result.append(np.array(m, dtype=float) / float(n * n))
    return result


def compare_with_reference(ours, reference, case_name, *, mask=None, labels=None, spacing=None, origin=None,
                           direction=None):
    """Asserts every reference column against ours with the tolerances above."""
    report = ComparisonReport()
    where = f"[{case_name}]"
    n = len(reference.get("label", []))
    assert len(ours["label"]) == n, f"{where} {len(ours['label'])} components, reference {n}"
    report.objects = n
    if n == 0:
        return report
    assert set(reference) <= set(ours), f"{where} columns missing: {set(reference) - set(ours)}"
    d = sum(1 for k in reference if k.startswith("centroid-"))
    for name in reference:
        if name in INTEGER_COLUMNS or name.startswith("bbox-"):
            np.testing.assert_array_equal(np.asarray(ours[name]), np.asarray(reference[name]),
                                          err_msg=f"{where} {name}")

    # Scales: coordinates for positions, ITK's moment noise per object.
    spacing = np.ones(d) if spacing is None else np.asarray(spacing, float)
    origin = np.zeros(d) if origin is None else np.asarray(origin, float)
    direction = np.eye(d) if direction is None else np.asarray(direction, float)
    boxes_min = np.stack([reference[f"bbox-{i}"] for i in range(d)], 1).astype(float)
    boxes_max = boxes_min + np.stack([reference[f"bbox-{d + i}"] for i in range(d)], 1) - 1
    corner_norm = np.zeros(n)
    for corner in itertools.product((0, 1), repeat=d):
        index = np.where(np.array(corner, bool), boxes_max, boxes_min)
        points = origin + index @ (direction * spacing).T
        corner_norm = np.maximum(corner_norm, np.linalg.norm(points, axis=1))
    position_scale = np.maximum(corner_norm, spacing.max())
    moments_ref = np.stack([reference[f"principal_moments-{i}"] for i in range(d)], 1)
    largest_moment = np.abs(moments_ref).max(1)
    noise = 64 * EPS * position_scale**2  # ITK's cancellation in E[p p^T] - c c^T

    def close(name, tolerance):
        got = np.asarray(ours[name], float)
        expected = np.asarray(reference[name], float)
        bad = ~(np.abs(got - expected) <= tolerance)
        if bad.any():
            k = int(np.argmax(bad))
            raise AssertionError(f"{where} {name}: label {k + 1} got {got[k]!r}, reference {expected[k]!r} "
                                 f"(tolerance {np.broadcast_to(tolerance, bad.shape)[k]:.3g}; "
                                 f"{int(bad.sum())} of {n} differ)")

    for name in ("physical_size", "perimeter", "roundness", "perimeter_on_border", "perimeter_on_border_ratio",
                 "equivalent_spherical_radius", "equivalent_spherical_perimeter", "feret_diameter"):
        if name in reference:
            close(name, RTOL * np.maximum(np.abs(np.asarray(reference[name], float)), 1e-300))
    for i in range(d):
        close(f"centroid-{i}", RTOL * position_scale)
        close(f"principal_moments-{i}", RTOL * largest_moment + noise)

    # Ratios of moments: only where the denominator is clear of ITK's noise.
    smallest = moments_ref[:, 0]
    for name, denominator in (("flatness", moments_ref[:, 0]), ("elongation", moments_ref[:, d - 2])):
        clear = np.abs(denominator) > 100 * noise
        report.degenerate_skips += int((~clear).sum())
        got = np.asarray(ours[name], float)[clear]
        expected = np.asarray(reference[name], float)[clear]
        tolerance = (RTOL + noise[clear] / np.abs(denominator[clear])) * np.maximum(np.abs(expected), 1)
        bad = ~(np.abs(got - expected) <= tolerance)
        assert not bad.any(), f"{where} {name}: got {got[bad][:3]}, reference {expected[bad][:3]}"
    clear = np.abs(smallest) > 100 * noise
    for i in range(d):
        got = np.asarray(ours[f"equivalent_ellipsoid_diameter-{i}"], float)[clear]
        expected = np.asarray(reference[f"equivalent_ellipsoid_diameter-{i}"], float)[clear]
        tolerance = (RTOL + noise[clear] / np.abs(smallest[clear])) * np.maximum(np.abs(expected), 1)
        assert np.all(np.abs(got - expected) <= tolerance), f"{where} equivalent_ellipsoid_diameter-{i}"

    # Axes and the oriented box.
    covariances = None
    if mask is not None and labels is not None:
        covariances = exact_covariances(mask, labels, n, d)
    transform = direction * spacing
    for k in range(n):
        axes_ours = np.array([[ours[f"principal_axes-{i}-{j}"][k] for j in range(d)] for i in range(d)])
        axes_ref = np.array([[reference[f"principal_axes-{i}-{j}"][k] for j in range(d)] for i in range(d)])
        pm = moments_ref[k]
        separated = [all(abs(pm[i] - pm[j]) > 1e-6 * largest_moment[k] + 100 * noise[k]
                         for j in range(d) if j != i) for i in range(d)]
        sign_tie = True
        if covariances is not None:
            c = transform @ covariances[k] @ transform.T
            tiny = 1e-12 * max(np.abs(c).max(), 1e-300)
            off = np.abs(c[~np.eye(d, dtype=bool)])
            diagonal = np.diag(c)
            equal_diagonal = any(abs(diagonal[i] - diagonal[j]) <= tiny for i in range(d) for j in range(i + 1, d))
            sign_tie = bool((off <= tiny).any()) or equal_diagonal
        if not all(separated):
            report.axes_skipped += 1
        for i in range(d):
            if not separated[i]:
                continue
            # The last row is multiplied by the determinant: its sign follows the others'.
            loose = sign_tie or (i == d - 1 and not all(separated))
            if loose and np.allclose(axes_ours[i], -axes_ref[i], atol=1e-9):
                report.axes_up_to_sign += 1
                continue
            assert np.allclose(axes_ours[i], axes_ref[i], atol=1e-9), (
                f"{where} principal_axes row {i} of label {k + 1}: got {axes_ours[i]}, reference {axes_ref[i]} "
                f"(moments {pm})")
        np.testing.assert_allclose(axes_ours @ axes_ours.T, np.eye(d), atol=1e-12)
        assert abs(np.linalg.det(axes_ours) - 1) < 1e-12
        if "oriented_bounding_box_size-0" in reference and all(separated):
            size_ours = np.array([ours[f"oriented_bounding_box_size-{i}"][k] for i in range(d)])
            size_ref = np.array([reference[f"oriented_bounding_box_size-{i}"][k] for i in range(d)])
            np.testing.assert_allclose(size_ours, size_ref, rtol=RTOL, atol=RTOL * position_scale[k],
                                       err_msg=f"{where} oriented_bounding_box_size of label {k + 1}")
            origin_ours = np.array([ours[f"oriented_bounding_box_origin-{i}"][k] for i in range(d)])
            origin_ref = np.array([reference[f"oriented_bounding_box_origin-{i}"][k] for i in range(d)])
            corners_ours = box_corners(origin_ours, size_ours, axes_ours)
            corners_ref = box_corners(origin_ref, size_ref, axes_ref)
            if np.allclose(axes_ours, axes_ref, atol=1e-9):
                np.testing.assert_allclose(origin_ours, origin_ref, atol=RTOL * position_scale[k] * 10,
                                           err_msg=f"{where} oriented_bounding_box_origin of label {k + 1}")
            np.testing.assert_allclose(corners_ours, corners_ref, atol=1e-8 * position_scale[k],
                                       err_msg=f"{where} oriented box corners of label {k + 1}")
    return report


def box_corners(origin, size, axes):
    d = len(origin)
    corners = [origin + sum(b * size[i] * axes[i] for i, b in enumerate(bits))
               for bits in itertools.product((0, 1), repeat=d)]
    return np.array(sorted(map(tuple, np.round(corners, 9))))
