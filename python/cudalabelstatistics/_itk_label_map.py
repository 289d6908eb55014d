"""Building an itk.LabelMap from a ShapeStatistics table (for ITK Python users)."""

from __future__ import annotations

import numpy as np


def _vector(itk, values, dimension):
    vector = itk.Vector[itk.D, dimension]()
    for i, value in enumerate(values):
        vector[i] = float(value)
    return vector


def _point(itk, values, dimension):
    point = itk.Point[itk.D, dimension]()
    for i, value in enumerate(values):
        point[i] = float(value)
    return point


def _matrix(itk, rows, dimension):
    return itk.matrix_from_array(np.ascontiguousarray(rows, dtype=np.float64))


def to_itk_label_map(table):
    import itk

    if table.lines is None:
        raise ValueError("to_itk_label_map() needs the run-length lines: call label_shape_statistics(..., "
                         "lines=True)")
    d = table.dimension
    label_object_type = itk.StatisticsLabelObject[itk.UL, d]
    label_map = itk.LabelMap[label_object_type].New()
    region = itk.ImageRegion[d]()
    region.SetIndex([int(i) for i in table.region_index[:d]])
    region.SetSize([int(s) for s in table.size[:d]])
    label_map.SetRegions(region)
    label_map.SetSpacing([float(s) for s in table.spacing[:d]])
    label_map.SetOrigin([float(o) for o in table.origin[:d]])
    label_map.SetDirection(itk.matrix_from_array(np.ascontiguousarray(table.direction[:d, :d], dtype=np.float64)))
    label_map.SetBackgroundValue(0)

    runs, offsets = table.lines
    index_offset = np.asarray(table.region_index[:d], dtype=np.int64)
    column = {name: np.asarray(values) for name, values in table.items()}

    def vector_of(name, row):
        return [column[f"{name}-{i}"][row] for i in range(d)]

    for row, label in enumerate(column["label"]):
        label_object = label_object_type.New()
        label_object.SetLabel(int(label))
        for x, y, z, length in runs[offsets[row]:offsets[row + 1]]:
            start = np.array((x, y, z)[:d], dtype=np.int64) + index_offset
            label_object.AddLine([int(v) for v in start], int(length))
        label_object.SetNumberOfPixels(int(column["number_of_pixels"][row]))
        label_object.SetPhysicalSize(float(column["physical_size"][row]))
        label_object.SetCentroid(_point(itk, vector_of("centroid", row), d))
        box = itk.ImageRegion[d]()
        box.SetIndex([int(column[f"bbox-{i}"][row]) for i in range(d)])
        box.SetSize([int(column[f"bbox-{d + i}"][row]) for i in range(d)])
        label_object.SetBoundingBox(box)
        label_object.SetNumberOfPixelsOnBorder(int(column["number_of_pixels_on_border"][row]))
        label_object.SetPerimeterOnBorder(float(column["perimeter_on_border"][row]))
        label_object.SetPrincipalMoments(_vector(itk, vector_of("principal_moments", row), d))
        axes = [[column[f"principal_axes-{i}-{j}"][row] for j in range(d)] for i in range(d)]
        label_object.SetPrincipalAxes(_matrix(itk, axes, d))
        label_object.SetElongation(float(column["elongation"][row]))
        label_object.SetFlatness(float(column["flatness"][row]))
        label_object.SetEquivalentSphericalRadius(float(column["equivalent_spherical_radius"][row]))
        label_object.SetEquivalentSphericalPerimeter(float(column["equivalent_spherical_perimeter"][row]))
        label_object.SetEquivalentEllipsoidDiameter(_vector(itk, vector_of("equivalent_ellipsoid_diameter", row), d))
        if "perimeter" in column:
            label_object.SetPerimeter(float(column["perimeter"][row]))
            label_object.SetRoundness(float(column["roundness"][row]))
            label_object.SetPerimeterOnBorderRatio(float(column["perimeter_on_border_ratio"][row]))
        if "feret_diameter" in column:
            label_object.SetFeretDiameter(float(column["feret_diameter"][row]))
        if "oriented_bounding_box_origin-0" in column:
            label_object.SetOrientedBoundingBoxOrigin(_point(itk, vector_of("oriented_bounding_box_origin", row), d))
            label_object.SetOrientedBoundingBoxSize(_vector(itk, vector_of("oriented_bounding_box_size", row), d))
        label_map.AddLabelObject(label_object)
    return label_map
