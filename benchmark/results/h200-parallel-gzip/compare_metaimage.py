"""Compares two MetaImage label files (.mha or .mhd) written by different
writers: the same geometry and element type (numbers compared as numbers;
AnatomicalOrientation, which ITK writes and the program leaves out, and
CompressedDataSize aside) and the same bytes once inflated by Python's zlib
(which checks the stream's Adler-32).
Usage: python3 compare_metaimage.py A B"""
import os
import sys
import zlib

NUMBERS = ("NDims", "TransformMatrix", "Offset", "ElementSpacing", "DimSize")


def read(path):
    with open(path, "rb") as f:
        content = f.read()
    end = content.index(b"ElementDataFile = ")
    line_end = content.index(b"\n", end)
    header = content[:line_end].decode()
    fields = dict(l.split(" = ", 1) for l in header.splitlines())
    if fields["ElementDataFile"] == "LOCAL":
        data = content[line_end + 1:]
    else:
        with open(os.path.join(os.path.dirname(path), fields["ElementDataFile"]), "rb") as f:
            data = f.read()
    kept = {k: ([float(x) for x in v.split()] if k in NUMBERS else v) for k, v in fields.items()
            if k not in ("AnatomicalOrientation", "CompressedDataSize", "ElementDataFile")}
    pixels = zlib.decompress(data) if fields["CompressedData"] == "True" else data
    return kept, pixels, len(data)


a_fields, a_pixels, a_size = read(sys.argv[1])
b_fields, b_pixels, b_size = read(sys.argv[2])
print(f"{sys.argv[1]}: {a_size} bytes of data, {len(a_pixels)} inflated")
print(f"{sys.argv[2]}: {b_size} bytes of data, {len(b_pixels)} inflated")
if a_fields != b_fields:
    print("header fields differ:", a_fields, b_fields)
    sys.exit(1)
if a_pixels != b_pixels:
    print("pixels differ")
    sys.exit(1)
print("same geometry and type, same pixels")
