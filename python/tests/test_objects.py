"""The intensity columns (feature_image=), label-image input (objects=) and the
size selection (min_size=, max_size=, keep_largest=, sort_by_size=) against
SimpleITK: LabelIntensityStatisticsImageFilter, LabelStatisticsImageFilter,
LabelShapeStatisticsImageFilter on label images, ConnectedComponent and
RelabelComponent. Every case names its seed."""

import numpy as np
import pytest

from conftest import random_blocks

import cudalabelstatistics as cls

sitk = pytest.importorskip("SimpleITK")

SCALARS = ("minimum", "maximum", "mean", "sum", "standard_deviation", "variance", "median", "skewness", "kurtosis")
SITK_GETTERS = ("GetMinimum", "GetMaximum", "GetMean", "GetSum", "GetStandardDeviation", "GetVariance",
                "GetMedian", "GetSkewness", "GetKurtosis")


def feature_of(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return (rng.normal(50.0, 20.0, shape)).astype(dtype)
    info = np.iinfo(dtype)
    low, high = max(info.min, -3000), min(info.max, 3000)
    return rng.integers(low, high, shape, endpoint=True).astype(dtype)


def sitk_image(array, spacing=None, origin=None):
    image = sitk.GetImageFromArray(array)
    if spacing is not None:
        image.SetSpacing(spacing)
    if origin is not None:
        image.SetOrigin(origin)
    return image


def check_intensity(ours, reference, labels, name, d, real=False):
    """ours' intensity columns against a LabelIntensityStatisticsImageFilter
    run on the same objects (reference label `labels[k]` is our row k). ITK
    sums powers of real values in double and subtracts (cancellation), where
    the engine sums central moments: real feature images agree to 1e-6."""
    tolerance = 1e-6 if real else 1e-9
    assert len(labels) == len(ours["label"]), name
    for k, label in enumerate(int(v) for v in labels):
        for column, getter in zip(SCALARS, SITK_GETTERS):
            expected = getattr(reference, getter)(label)
            np.testing.assert_allclose(ours[column][k], expected, rtol=tolerance, atol=tolerance,
                                       err_msg=f"{name}: {column} of label {label}")
        for column, getter in (("minimum_index", "GetMinimumIndex"), ("maximum_index", "GetMaximumIndex")):
            got = tuple(int(ours[f"{column}-{i}"][k]) for i in range(d))
            assert got == tuple(getattr(reference, getter)(label)), f"{name}: {column} of label {label}"
        got = [ours[f"center_of_gravity-{i}"][k] for i in range(d)]
        np.testing.assert_allclose(got, reference.GetCenterOfGravity(label), rtol=1e-9, atol=1e-9,
                                   err_msg=f"{name}: center_of_gravity of label {label}")
        check_weighted_moments(ours, reference, k, label, f"{name}: label {label}", d)


def check_weighted_moments(ours, reference, k, label, where, d):
    """Our row k's weighted principal moments, axes, elongation and flatness
    against the reference's, within the noise of ITK's formula: it sums
    v p p^T over physical points in double and subtracts the centre of
    gravity's square, losing (N + 8) eps of sum |v| |p|^2 / |sum v| (as the
    C++ intensity tests bound it; the engine's index-space sums are exact for
    integer values). Axes are compared where their moment is separated from
    the others by far more than that noise, up to sign; the ratios where
    their moments lie above it."""
    eps = np.finfo(float).eps
    n = reference.GetNumberOfPixels(label)
    magnitude = max(abs(reference.GetMinimum(label)), abs(reference.GetMaximum(label)))
    grow = (n + 8) * eps
    total = abs(reference.GetSum(label))
    if not total > 1e3 * grow * n * magnitude:
        return
    corners = [abs(o) + s * z for o, s, z in zip(ours.origin, ours.spacing, ours.size)]
    scale = max(corners)
    noise = 16 * grow * (n * magnitude / total) * scale ** 2 + 1e-12 * scale ** 2
    want = np.asarray(reference.GetWeightedPrincipalMoments(label))
    got = np.array([ours[f"weighted_principal_moments-{i}"][k] for i in range(d)])
    assert np.all(np.abs(got - want) <= noise), f"{where}: weighted_principal_moments {got} vs {want} ({noise})"
    want_axes = np.asarray(reference.GetWeightedPrincipalAxes(label)).reshape(d, d)
    got_axes = np.array([[ours[f"weighted_principal_axes-{i}-{j}"][k] for j in range(d)] for i in range(d)])
    assert abs(np.linalg.det(got_axes) - 1) < 1e-9, f"{where}: weighted_principal_axes not a rotation"
    for a in range(d):
        gap = min(abs(want[a] - want[b]) for b in range(d) if b != a)
        if gap > 1e3 * noise:
            sign = -1.0 if got_axes[a] @ want_axes[a] < 0 else 1.0
            np.testing.assert_allclose(sign * got_axes[a], want_axes[a], atol=4 * noise / gap + 1e-12,
                                       err_msg=f"{where}: weighted_principal_axes row {a}")
    for column, getter, top, bottom in (("weighted_elongation", "GetWeightedElongation", d - 1, d - 2),
                                        ("weighted_flatness", "GetWeightedFlatness", 1, 0)):
        if abs(want[top]) > 1e3 * noise and abs(want[bottom]) > 1e3 * noise:
            expected = getattr(reference, getter)(label)
            if np.isnan(expected):  # moments of opposite signs (negative values weigh): ITK's sqrt gives NaN
                assert np.isnan(ours[column][k]), f"{where}: {column} {ours[column][k]}, not NaN as ITK's"
                continue
            tolerance = abs(expected) * (noise / abs(want[bottom]) + noise / abs(want[top])) + 1e-12
            assert abs(ours[column][k] - expected) <= tolerance, (
                f"{where}: {column} {ours[column][k]} vs {expected} ({tolerance})")


@pytest.mark.parametrize("dtype, bins, sitk_bins", [
    (np.uint8, 0, 256),     # one bin per value, ITK's default for 8-bit images
    (np.uint8, 128, 128),   # SimpleITK's default NumberOfBins
    (np.int16, 0, 65536),
    (np.int32, 0, 128),
    (np.float32, 0, 128),
    (np.float64, 50, 50),
])
@pytest.mark.parametrize("shape", [(23, 31), (7, 11, 13)])
def test_intensity_columns_equal_simpleitk(dtype, bins, sitk_bins, shape):
    seed = 100 + len(shape) * 10 + bins % 7 + np.dtype(dtype).itemsize
    name = f"{np.dtype(dtype).name} {len(shape)}D bins={bins} seed={seed}"
    mask = random_blocks(shape, 0.45, 1, seed)
    feature = feature_of(dtype, shape, seed + 1)
    spacing, origin = (0.7, 1.3, 2.0)[:len(shape)], (4.0, -2.5, 1.0)[:len(shape)]
    ours = cls.label_shape_statistics(mask, feature_image=feature, histogram_bins=bins, spacing=spacing,
                                      origin=origin, backend="cpu")
    components = sitk.ConnectedComponent(sitk_image(mask, spacing, origin))
    reference = sitk.LabelIntensityStatisticsImageFilter()
    reference.SetNumberOfBins(sitk_bins)
    reference.Execute(components, sitk_image(feature, spacing, origin))
    check_intensity(ours, reference, ours["label"], name, len(shape), real=np.dtype(dtype).kind == "f")


def test_feature_image_as_simpleitk_image_and_bool_mask():
    seed = 201
    mask = random_blocks((30, 40), 0.5, 2, seed).astype(bool)
    feature = feature_of(np.uint16, mask.shape, seed)
    image = sitk.GetImageFromArray(feature)
    ours = cls.label_shape_statistics(mask, feature_image=image, backend="cpu")
    reference = sitk.LabelIntensityStatisticsImageFilter()
    reference.SetNumberOfBins(65536)
    reference.Execute(sitk.ConnectedComponent(sitk.GetImageFromArray(mask.astype(np.uint8))), image)
    check_intensity(ours, reference, ours["label"], f"SimpleITK feature image seed={seed}", 2)


def sparse_label_image(shape, seed, values=(3, 17, 250, 1000, 40000)):
    """Blocks of a few sparse values on a 0 background (values repeat, so an
    object of label_values is usually not connected)."""
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, len(values) + 2, tuple((s + 2) // 3 for s in shape))
    table = np.array((0, 0) + tuple(values), dtype=np.int64)
    image = np.kron(table[blocks], np.ones((3,) * len(shape), np.int64))
    return image[tuple(slice(0, s) for s in shape)].astype(np.int32)


@pytest.mark.parametrize("shape, seed", [((40, 37), 301), ((9, 12, 14), 302)])
def test_label_values_equal_simpleitk(shape, seed):
    name = f"label_values {len(shape)}D seed={seed}"
    labels = sparse_label_image(shape, seed)
    feature = feature_of(np.float64, shape, seed + 1)
    ours = cls.label_shape_statistics(labels, objects="label_values", feature_image=feature, backend="cpu",
                                      label_image=True)
    values = np.unique(labels[labels != 0])
    np.testing.assert_array_equal(ours["label_value"], values, err_msg=name)
    np.testing.assert_array_equal(ours["label"], np.arange(1, len(values) + 1), err_msg=name)
    expected_image = np.searchsorted(values, labels) + 1
    expected_image[labels == 0] = 0
    np.testing.assert_array_equal(ours.label_image, expected_image, err_msg=name)

    label_sitk = sitk.GetImageFromArray(labels)
    shape_reference = sitk.LabelShapeStatisticsImageFilter()
    shape_reference.Execute(label_sitk)
    counts = [shape_reference.GetNumberOfPixels(int(v)) for v in values]
    np.testing.assert_array_equal(ours["number_of_pixels"], counts, err_msg=name)
    centroid = [shape_reference.GetCentroid(int(v)) for v in values]
    np.testing.assert_allclose(np.stack([ours[f"centroid-{i}"] for i in range(len(shape))], 1), centroid,
                               rtol=1e-12, err_msg=name)

    intensity = sitk.LabelIntensityStatisticsImageFilter()
    intensity.Execute(label_sitk, sitk.GetImageFromArray(feature))
    check_intensity(ours, intensity, values, name, len(shape), real=True)

    # LabelStatisticsImageFilter: the plain statistics (its Sigma is the N-1 standard deviation).
    plain = sitk.LabelStatisticsImageFilter()
    plain.Execute(sitk.GetImageFromArray(feature), label_sitk)
    for k, v in enumerate(int(v) for v in values):
        assert plain.GetCount(v) == ours["number_of_pixels"][k], name
        np.testing.assert_allclose([ours["mean"][k], ours["sum"][k], ours["standard_deviation"][k],
                                    ours["minimum"][k], ours["maximum"][k]],
                                   [plain.GetMean(v), plain.GetSum(v), plain.GetSigma(v), plain.GetMinimum(v),
                                    plain.GetMaximum(v)], rtol=1e-9, err_msg=f"{name}: label value {v}")


@pytest.mark.parametrize("fully", [False, True])
def test_label_value_components_equal_simpleitk(fully):
    seed = 311 + fully
    name = f"label_value_components fully={fully} seed={seed}"
    labels = sparse_label_image((33, 41), seed)
    ours = cls.label_shape_statistics(labels, objects="label_value_components", fully_connected=fully,
                                      label_image=True, backend="cpu")
    # ScalarConnectedComponent with distance 0 joins neighbours of equal value (background included).
    reference = sitk.ScalarConnectedComponent(sitk.GetImageFromArray(labels), 0.0, fully)
    reference = sitk.GetArrayFromImage(reference).astype(np.int64)
    reference[labels == 0] = 0
    # Renumber both in raster order of first pixels and compare the partitions.
    ours_image = np.asarray(ours.label_image).astype(np.int64)
    flat_ref, flat_ours = reference.ravel(), ours_image.ravel()
    _, first = np.unique(flat_ref, return_index=True)
    order = {int(flat_ref[i]): int(flat_ours[i]) for i in first}
    mapped = np.vectorize(order.get)(reference)
    np.testing.assert_array_equal(mapped, ours_image, err_msg=name)
    assert len(ours["label"]) == len(first) - 1, name
    firsts = sorted(first[flat_ref[first] != 0])
    np.testing.assert_array_equal(ours["label_value"], labels.ravel()[firsts], err_msg=name)


@pytest.mark.parametrize("min_size, max_size, keep_largest, sort_by_size", [
    (5, None, None, True),
    (0, None, 4, False),
    (3, 20, None, False),
    (0, None, None, True),
    (2, 12, 3, True),
])
def test_selection_equals_relabel_component(min_size, max_size, keep_largest, sort_by_size):
    seed = 401 + min_size + (keep_largest or 0)
    name = f"selection min={min_size} max={max_size} keep={keep_largest} sort={sort_by_size} seed={seed}"
    mask = random_blocks((48, 56), 0.42, 1, seed)
    feature = feature_of(np.int16, mask.shape, seed)
    everything = cls.label_shape_statistics(mask, backend="cpu", label_image=True)
    ours = cls.label_shape_statistics(mask, min_size=min_size, max_size=max_size, keep_largest=keep_largest,
                                      sort_by_size=sort_by_size, feature_image=feature, label_image=True,
                                      backend="cpu")
    counts = everything["number_of_pixels"]
    source = np.arange(1, len(counts) + 1)
    keep = (counts >= min_size) & (counts <= (max_size if max_size is not None else counts.max()))
    source = source[keep]
    if keep_largest is not None or sort_by_size:
        # RelabelComponent's order: decreasing size, ties by label (a stable sort).
        by_size = source[np.argsort(-counts[source - 1], kind="stable")]
        if keep_largest is not None:
            source = np.sort(by_size[:keep_largest]) if not sort_by_size else by_size[:keep_largest]
        else:
            source = by_size
    np.testing.assert_array_equal(ours["source_label"], source, err_msg=name)
    np.testing.assert_array_equal(ours["number_of_pixels"], counts[source - 1], err_msg=name)
    np.testing.assert_array_equal(ours["label"], np.arange(1, len(source) + 1), err_msg=name)
    # The label image holds the new numbers.
    expected = np.zeros_like(everything.label_image)
    for new, old in enumerate(source, 1):
        expected[everything.label_image == old] = new
    np.testing.assert_array_equal(ours.label_image, expected, err_msg=name)

    if sort_by_size and keep_largest is None and max_size is None:
        relabeled = sitk.RelabelComponent(sitk.ConnectedComponent(sitk.GetImageFromArray(mask)), min_size, True)
        np.testing.assert_array_equal(ours.label_image, sitk.GetArrayFromImage(relabeled), err_msg=name)
        reference = sitk.LabelIntensityStatisticsImageFilter()
        reference.SetNumberOfBins(65536)
        reference.Execute(relabeled, sitk.GetImageFromArray(feature))
        check_intensity(ours, reference, ours["label"], name, 2)


def test_no_selection_has_no_source_label_column():
    ours = cls.label_shape_statistics(random_blocks((10, 12), 0.5, 1, 501), backend="cpu")
    assert "source_label" not in ours and "label_value" not in ours and "mean" not in ours


def test_argument_errors():
    mask = random_blocks((10, 12), 0.5, 1, 502)
    with pytest.raises(ValueError, match="shape"):
        cls.label_shape_statistics(mask, feature_image=np.zeros((10, 11)), backend="cpu")
    with pytest.raises(TypeError, match="integer dtype"):
        cls.label_shape_statistics(mask.astype(np.float32), objects="label_values", backend="cpu")
    with pytest.raises(TypeError, match="no threshold"):
        cls.label_shape_statistics(mask, threshold=0, objects="label_value_components", backend="cpu")
    with pytest.raises(ValueError, match="objects must be"):
        cls.label_shape_statistics(mask, objects="values", backend="cpu")
    with pytest.raises(ValueError, match="min_size must be >= 0"):
        cls.label_shape_statistics(mask, min_size=-1, backend="cpu")
    with pytest.raises(ValueError, match="max_size"):
        cls.label_shape_statistics(mask, min_size=5, max_size=4, backend="cpu")
    with pytest.raises(ValueError, match="keep_largest"):
        cls.label_shape_statistics(mask, keep_largest=0, backend="cpu")
    with pytest.raises(TypeError, match="integer number of pixels"):
        cls.label_shape_statistics(mask, min_size=2.5, backend="cpu")
    with pytest.raises(TypeError, match="complex"):
        cls.label_shape_statistics(mask, feature_image=np.zeros(mask.shape, np.complex64), backend="cpu")
    with pytest.raises(TypeError, match="float32 or float64"):
        cls.label_shape_statistics(mask, feature_image=np.zeros(mask.shape, np.float16), backend="cpu")


@pytest.mark.parametrize("objects, selection, feature", [
    ("components", {}, False), ("label_values", {}, False), ("label_value_components", {"min_size": 2}, True),
    ("components", {"sort_by_size": True}, True)])
def test_columns_do_not_depend_on_the_rows_found(objects, selection, feature):
    """A table without rows (an empty mask, or a selection that drops every
    object) has the columns of one with rows: the options decide them."""
    full = np.zeros((6, 7), np.uint8)
    full[1:4, 2:5] = 3
    kwargs = dict(objects=objects, backend="cpu", **selection)
    if feature:
        kwargs["feature_image"] = np.arange(42, dtype=np.float32).reshape(6, 7)
    some = cls.label_shape_statistics(full, **kwargs)
    none = cls.label_shape_statistics(np.zeros_like(full), **kwargs)
    assert len(some["label"]) == 1 and len(none["label"]) == 0
    assert list(none) == list(some)
    assert all(none[k].dtype == some[k].dtype for k in some)
    dropped = cls.label_shape_statistics(full, **{**kwargs, "min_size": 100})
    assert list(dropped) == list(cls.label_shape_statistics(full, **{**kwargs, "min_size": 1}))


def test_label_value_of_a_uint64_label_image_past_2_63():
    values = np.zeros((4, 4), np.uint64)
    values[0, 0] = 2**63
    values[3, 3] = 2**64 - 1
    values[1, 1] = 7
    table = cls.label_shape_statistics(values, objects="label_values", backend="cpu")
    assert table["label_value"].dtype == np.uint64
    assert table["label_value"].tolist() == [7, 2**63, 2**64 - 1]
    signed = cls.label_shape_statistics(values.astype(np.int64), objects="label_values", backend="cpu")
    assert signed["label_value"].dtype == np.int64


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nan_feature_values_as_itk(dtype):
    """NaN in a real feature image, as ITK's StatisticsLabelMapFilter takes it:
    the histogram's range and each object's extremes pass NaN over, sums
    turn NaN. Here NaN lies in the background only (at the first pixel, where
    the range once started, and elsewhere), so SimpleITK is the reference;
    the engine's tests and the ITK tests check NaN inside objects against
    ITK 5.2's own filter."""
    seed = 601
    rng = np.random.default_rng(seed)
    mask = random_blocks((23, 31), 0.45, 1, seed)
    feature = feature_of(dtype, mask.shape, seed + 1)
    background = np.flatnonzero(mask.ravel() == 0)
    nan_at = np.concatenate([[0], rng.choice(background, 40, replace=False)])
    mask.ravel()[0] = 0
    feature.ravel()[nan_at] = np.nan
    ours = cls.label_shape_statistics(mask, feature_image=feature, histogram_bins=128, backend="cpu")
    reference = sitk.LabelIntensityStatisticsImageFilter()
    reference.SetNumberOfBins(128)
    components = sitk.ConnectedComponent(sitk.GetImageFromArray(mask))
    reference.Execute(components, sitk.GetImageFromArray(feature))
    assert not np.any(np.isnan(ours["median"])), f"seed {seed}"
    check_intensity(ours, reference, ours["label"], f"NaN background seed {seed}", 2, real=True)


def test_nan_in_an_object_leaves_its_extremes():
    feature = np.arange(24, dtype=np.float64).reshape(4, 6)
    mask = np.zeros((4, 6), np.uint8)
    mask[1:3, 1:5] = 1
    mask[0, 5] = 1  # an object of one NaN pixel: ITK's starting extremes
    feature[0, 0] = np.nan
    feature[1, 4] = np.nan
    feature[0, 5] = np.nan
    table = cls.label_shape_statistics(mask, feature_image=feature, backend="cpu")
    inside = int(np.flatnonzero(table["number_of_pixels"] == 8)[0])
    alone = 1 - inside
    assert table["minimum"][inside] == 7 and table["maximum"][inside] == 16
    assert np.isnan(table["mean"][inside]) and np.isnan(table["sum"][inside])
    assert table["minimum"][alone] == np.finfo(np.float64).max
    assert table["maximum"][alone] == -np.finfo(np.float64).max


def test_feature_image_in_another_physical_space_is_refused():
    mask = np.zeros((10, 10), np.uint8)
    mask[2:5, 2:6] = 1
    image = sitk.GetImageFromArray(mask)
    values = np.arange(100, dtype=np.float32).reshape(10, 10)
    same = sitk.GetImageFromArray(values)
    same.CopyInformation(image)
    cls.label_shape_statistics(image, feature_image=same, backend="cpu")
    cls.label_shape_statistics(image, feature_image=values, backend="cpu")  # an array has no geometry
    for change in ("spacing", "origin", "direction"):
        moved = sitk.GetImageFromArray(values)
        if change == "spacing":
            moved.SetSpacing((2.0, 2.0))
        elif change == "origin":
            moved.SetOrigin((50.0, 0.0))
        else:
            moved.SetDirection((0.0, 1.0, 1.0, 0.0))
        with pytest.raises(ValueError, match=f"physical space: its {change}"):
            cls.label_shape_statistics(image, feature_image=moved, backend="cpu")
    within = sitk.GetImageFromArray(values)
    within.SetOrigin((1e-8, 0.0))  # ITK's tolerance: 1e-6 of the spacing
    cls.label_shape_statistics(image, feature_image=within, backend="cpu")


def test_simpleitk_label_map_image_is_refused_not_fatal():
    label_map = sitk.Cast(sitk.GetImageFromArray(np.ones((4, 4), np.uint8)), sitk.sitkLabelUInt8)
    with pytest.raises(TypeError, match="LabelMapToLabel"):
        cls.label(label_map, backend="cpu")
    with pytest.raises(TypeError, match="LabelMapToLabel"):
        cls.label_shape_statistics(sitk.GetImageFromArray(np.ones((4, 4), np.uint8)), feature_image=label_map,
                                   backend="cpu")
