"""Golden values of ITK 5.2.1 (shared/notes/itk-facts.md) and the exact zeros
of degenerate components, which ITK leaves as rounding noise."""

import numpy as np
import pytest

from conftest import rotation_direction

import cudalabelstatistics as cls


def one(mask, **kwargs):
    table = cls.label_shape_statistics(np.asarray(mask, np.uint8), backend="cpu", **kwargs)
    assert table.number_of_labels == 1
    return {name: values[0] for name, values in table.items()}


def test_itk_golden_values():
    assert one(np.ones((1, 1)))["perimeter"] == pytest.approx(2.681517, abs=5e-7)
    assert one(np.ones((1, 1, 1)))["perimeter"] == pytest.approx(3.004080, abs=5e-7)
    square = one(np.pad(np.ones((3, 3)), 2))
    assert square["perimeter"] == pytest.approx(10.265993, abs=5e-7)
    assert square["principal_moments-0"] == pytest.approx(2 / 3, rel=1e-15)
    assert square["principal_moments-1"] == pytest.approx(2 / 3, rel=1e-15)
    assert one(np.pad(np.ones((3, 3, 3)), 1))["perimeter"] == pytest.approx(41.070175, abs=5e-7)
    # pi/4 (2 + sqrt 2): the single pixel's perimeter in closed form.
    assert one(np.ones((1, 1)))["perimeter"] == pytest.approx(np.pi / 4 * (2 + np.sqrt(2)), rel=1e-15)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lines_and_planes_have_exact_zero_moments_in_any_direction(seed):
    direction3 = rotation_direction(3, seed)
    line = np.zeros((5, 6, 40), np.uint8)
    line[2, 3, 5:35] = 1
    attributes = one(line, spacing=(0.37, 1.9, 0.61), direction=direction3, origin=(100.0, -50.0, 7.0))
    assert attributes["principal_moments-0"] == 0.0 and attributes["principal_moments-1"] == 0.0
    assert attributes["principal_moments-2"] == pytest.approx(0.37**2 * (30**2 - 1) / 12, rel=1e-12)
    assert attributes["elongation"] == 0.0 and attributes["flatness"] == 0.0
    assert all(attributes[f"equivalent_ellipsoid_diameter-{i}"] == 0.0 for i in range(3))
    # The axis of the line: its physical direction, x of the image rotated.
    np.testing.assert_allclose(np.abs([attributes[f"principal_axes-2-{j}"] for j in range(3)]),
                               np.abs(direction3[:, 0]), atol=1e-12)

    diagonal = np.zeros((20, 20), np.uint8)
    diagonal[np.arange(3, 17), np.arange(2, 16)] = 1
    attributes = one(diagonal, fully_connected=True, spacing=(0.3, 0.7), direction=rotation_direction(2, seed))
    assert attributes["principal_moments-0"] == 0.0
    assert attributes["elongation"] == 0.0 and attributes["flatness"] == 0.0

    plane = np.zeros((6, 12, 14), np.uint8)
    plane[:, 4, :] = 1
    attributes = one(plane, spacing=(0.5, 0.5, 2.0), direction=direction3)
    assert attributes["principal_moments-0"] == 0.0 and attributes["principal_moments-1"] > 0
    assert attributes["flatness"] == 0.0 and attributes["elongation"] > 0


def test_single_pixel():
    attributes = one(np.pad(np.ones((1, 1, 1)), 2), spacing=(0.5, 2.0, 3.0), origin=(1.0, 2.0, 3.0))
    assert [attributes[f"principal_moments-{i}"] for i in range(3)] == [0.0, 0.0, 0.0]
    assert [attributes[f"centroid-{i}"] for i in range(3)] == [2.0, 6.0, 9.0]
    assert attributes["physical_size"] == 3.0
    assert attributes["number_of_pixels_on_border"] == 0
