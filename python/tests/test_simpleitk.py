"""Every column against sitk.ConnectedComponent + LabelShapeStatisticsImageFilter,
and the label image against sitk.ConnectedComponent's."""

import numpy as np
import pytest

from conftest import Case, blobs, compare_with_reference, random_blocks, rotation_direction, sitk_reference

import cudalabelstatistics as cls

sitk = pytest.importorskip("SimpleITK")


def cases():
    out = []
    for fully in (False, True):
        conn = "full" if fully else "face"
        # Lower densities with full connectivity, or everything percolates into one component.
        d2, d3 = (0.45, 0.3) if not fully else (0.3, 0.12)
        out += [
            Case(f"random 2D d={d2} g=1 seed=11 {conn}", random_blocks((37, 53), d2, 1, 11), fully),
            Case(f"random 2D d={d2 + 0.1} g=3 seed=12 {conn} anisotropic", random_blocks((64, 61), d2 + 0.1, 3, 12),
                 fully, spacing=(0.7, 1.3)),
            Case(f"random 3D d={d3} g=1 seed=13 {conn}", random_blocks((9, 14, 17), d3, 1, 13), fully),
            Case(f"random 3D d={d3 + 0.1} g=2 seed=14 {conn} anisotropic", random_blocks((12, 16, 20), d3 + 0.1, 2, 14),
                 fully, spacing=(0.5, 0.9, 2.5), origin=(-3.0, 4.0, 10.0)),
            Case(f"blobs 2D seed=15 {conn} rotated", blobs((70, 90), 25, 15, thin=True), fully,
                 spacing=(0.8, 1.1), origin=(12.5, -7.0), direction=rotation_direction(2, 15)),
            Case(f"blobs 3D seed=16 {conn} rotated", blobs((22, 30, 34), 14, 16, thin=True), fully,
                 spacing=(1.2, 0.6, 0.9), origin=(5.0, -2.0, 30.0), direction=rotation_direction(3, 16)),
            Case(f"blobs 3D seed=17 {conn} axis-aligned", blobs((20, 24, 28), 14, 17, thin=True), fully,
                 spacing=(0.3, 0.3, 1.7)),
        ]
    out.append(Case("all foreground 3D", np.ones((5, 6, 7), np.uint8)))
    out.append(Case("empty 2D", np.zeros((8, 9), np.uint8)))
    out.append(Case("single pixels 2D (checkerboard, face)", (np.indices((12, 12)).sum(0) % 2 == 0).astype(np.uint8)))
    return out


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_columns_equal_simpleitk(case):
    spacing, origin, direction = case.geometry()
    reference, reference_labels = sitk_reference(case)
    ours = cls.label_shape_statistics(case.mask, fully_connected=case.fully_connected, spacing=spacing,
                                      origin=origin, direction=direction, feret_diameter=True,
                                      oriented_bounding_box=True, label_image=True, backend="cpu")
    np.testing.assert_array_equal(ours.label_image, reference_labels, err_msg=case.name)
    report = compare_with_reference(ours, reference, case.name, mask=case.mask, labels=ours.label_image,
                                    spacing=spacing, origin=origin, direction=direction)
    assert report.objects == len(ours["label"])


def test_simpleitk_image_input_carries_geometry():
    mask = blobs((40, 50), 6, 21, thin=True)
    direction = rotation_direction(2, 21)
    image = sitk.GetImageFromArray(mask)
    image.SetSpacing((0.4, 1.7))
    image.SetOrigin((3.0, -1.0))
    image.SetDirection(direction.ravel().tolist())
    ours = cls.label_shape_statistics(image, backend="cpu", label_image=True, feret_diameter=True,
                                      oriented_bounding_box=True)
    case = Case("sitk image seed=21", mask, spacing=(0.4, 1.7), origin=(3.0, -1.0), direction=direction)
    reference, reference_labels = sitk_reference(case)
    compare_with_reference(ours, reference, case.name, mask=mask, labels=reference_labels, spacing=case.spacing,
                           origin=case.origin, direction=direction)
    # The label image comes back as a SimpleITK image with the input's geometry.
    assert isinstance(ours.label_image, sitk.Image)
    assert ours.label_image.GetSpacing() == image.GetSpacing()
    assert ours.label_image.GetDirection() == image.GetDirection()
    np.testing.assert_array_equal(sitk.GetArrayViewFromImage(ours.label_image), reference_labels)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64"])
def test_simpleitk_pixel_types_and_background_value(dtype):
    rng = np.random.default_rng(31)
    values = rng.integers(0, 5, size=(20, 24)).astype(dtype)
    image = sitk.GetImageFromArray(values)
    ours = cls.label_shape_statistics(image, background_value=3, backend="cpu", label_image=True)
    expected = sitk.GetArrayFromImage(sitk.ConnectedComponent(sitk.GetImageFromArray((values != 3).astype(np.uint8))))
    np.testing.assert_array_equal(sitk.GetArrayViewFromImage(ours.label_image), expected, err_msg=dtype)
    assert len(ours["label"]) == expected.max()
