"""Against itk.BinaryImageToShapeLabelMapFilter: itk.Image input with region
offsets, spacing and direction; the LabelMap of to_itk_label_map()."""

import numpy as np
import pytest

from conftest import blobs, compare_with_reference, itk_reference, random_blocks, rotation_direction

import cudalabelstatistics as cls

itk = pytest.importorskip("itk")


def itk_image(mask, spacing, origin, direction, index):
    image = itk.image_from_array(np.ascontiguousarray(mask, dtype=np.uint8))
    region = image.GetLargestPossibleRegion()
    region.SetIndex([int(i) for i in index])
    image.SetRegions(region)
    image.SetSpacing([float(s) for s in spacing])
    image.SetOrigin([float(o) for o in origin])
    image.SetDirection(itk.matrix_from_array(np.ascontiguousarray(direction, dtype=np.float64)))
    return image


CASES = [
    ("2D random seed=41 face, index (5, -3)", random_blocks((33, 47), 0.5, 2, 41), False, (0.6, 1.4), (2.0, 3.0),
     rotation_direction(2, 41), (5, -3)),
    ("2D blobs seed=42 full, index (-7, 11)", blobs((48, 40), 14, 42, thin=True), True, (1.0, 1.0), (0.0, 0.0),
     np.eye(2), (-7, 11)),
    ("3D random seed=43 face, index (2, 0, -4)", random_blocks((10, 13, 15), 0.3, 1, 43), False, (0.8, 1.1, 2.0),
     (-1.0, 0.5, 4.0), rotation_direction(3, 43), (2, 0, -4)),
    ("3D blobs seed=44 full, index (0, 9, 1)", blobs((16, 20, 22), 10, 44, thin=True), True, (0.5, 0.5, 1.5),
     (0.0, 0.0, 0.0), np.eye(3), (0, 9, 1)),
]


@pytest.mark.parametrize("name, mask, fully, spacing, origin, direction, index", CASES, ids=[c[0] for c in CASES])
def test_itk_image_equals_binary_image_to_shape_label_map_filter(name, mask, fully, spacing, origin, direction,
                                                                  index):
    image = itk_image(mask, spacing, origin, direction, index)
    reference, reference_lines = itk_reference(image, fully)
    ours = cls.label_shape_statistics(image, fully_connected=fully, backend="cpu", feret_diameter=True,
                                      oriented_bounding_box=True, lines=True, label_image=True)
    assert ours.region_index == tuple(index)
    # The exact covariances need labels: our label image, checked below against the lines.
    labels = np.asarray(itk.array_view_from_image(ours.label_image))
    compare_with_reference(ours, reference, name, mask=mask, labels=labels, spacing=spacing, origin=origin,
                           direction=direction)
    # Lines: ITK's, in ITK index space.
    runs, offsets = ours.lines
    d = mask.ndim
    for row, expected in enumerate(reference_lines):
        got = [(tuple(int(v) for v in (run[:d] + np.array(index))), int(run[3])) for run in
               runs[offsets[row]:offsets[row + 1]]]
        assert sorted(got) == sorted(expected), f"[{name}] lines of label {row + 1}"
    # The label image is an itk.Image with the input's geometry and region.
    assert tuple(ours.label_image.GetLargestPossibleRegion().GetIndex()) == tuple(index)
    assert tuple(ours.label_image.GetSpacing()) == tuple(image.GetSpacing())


@pytest.mark.parametrize("d", [2, 3])
def test_to_itk_label_map_round_trip(d):
    shape = (30, 36) if d == 2 else (10, 12, 14)
    mask = blobs(shape, 8, 50 + d, thin=True)
    spacing = (0.9, 1.3, 0.7)[:d]
    image = itk_image(mask, spacing, (1.0, 2.0, 3.0)[:d], np.eye(d), (3, -2, 5)[:d])
    ours = cls.label_shape_statistics(image, backend="cpu", lines=True, feret_diameter=True,
                                      oriented_bounding_box=True)
    label_map = ours.to_itk_label_map()
    assert label_map.GetNumberOfLabelObjects() == ours.number_of_labels
    assert tuple(label_map.GetLargestPossibleRegion().GetIndex()) == (3, -2, 5)[:d]
    # The map's lines make the same label image as ITK's own filter.
    as_image = itk.label_map_to_label_image_filter(label_map)
    reference_map = itk.binary_image_to_shape_label_map_filter(image, input_foreground_value=1)
    reference_image = itk.label_map_to_label_image_filter(reference_map)
    np.testing.assert_array_equal(itk.array_view_from_image(as_image), itk.array_view_from_image(reference_image))
    for row in range(ours.number_of_labels):
        label_object = label_map.GetLabelObject(int(ours["label"][row]))
        assert label_object.GetNumberOfPixels() == ours["number_of_pixels"][row]
        assert label_object.GetPerimeter() == pytest.approx(ours["perimeter"][row], rel=1e-12)
        assert label_object.GetFeretDiameter() == pytest.approx(ours["feret_diameter"][row], rel=1e-12)
        centroid = [ours[f"centroid-{i}"][row] for i in range(d)]
        np.testing.assert_allclose(list(label_object.GetCentroid()), centroid, rtol=1e-12)


def test_to_itk_label_map_needs_lines():
    ours = cls.label_shape_statistics(np.ones((4, 4), np.uint8), backend="cpu")
    with pytest.raises(ValueError, match="lines=True"):
        ours.to_itk_label_map()


def test_itk_image_with_a_smaller_buffered_region_is_refused():
    image = itk_image(np.ones((8, 8), np.uint8), (1, 1), (0, 0), np.eye(2), (0, 0))
    largest = image.GetLargestPossibleRegion()
    bigger = itk.ImageRegion[2]()
    bigger.SetIndex(largest.GetIndex())
    bigger.SetSize([16, 16])
    image.SetLargestPossibleRegion(bigger)
    with pytest.raises(ValueError, match="buffered region"):
        cls.label_shape_statistics(image, backend="cpu")
