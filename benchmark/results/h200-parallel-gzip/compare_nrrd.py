"""Compares two NRRD label files written by different writers: the same
header fields (the comment lines aside) and the same bytes once inflated by
Python's gzip (which checks each stream's CRC-32 and length).
Usage: python3 compare_nrrd.py A.nrrd|A.nhdr B.nrrd|B.nhdr"""
import gzip
import os
import sys


def read(path):
    with open(path, "rb") as f:
        content = f.read()
    if path.endswith(".nhdr"):
        header = content.decode()
        name = [l for l in header.splitlines() if l.startswith("data file: ")][0][11:]
        with open(os.path.join(os.path.dirname(path), name), "rb") as f:
            data = f.read()
    else:
        at = content.index(b"\n\n")
        header, data = content[:at].decode(), content[at + 2:]
    fields = [l for l in header.splitlines() if not l.startswith("#") and not l.startswith("data file")]
    encoding = [l for l in fields if l.startswith("encoding: ")][0][10:]
    return fields, (gzip.decompress(data) if encoding == "gzip" else data), len(data)


a_fields, a_data, a_size = read(sys.argv[1])
b_fields, b_data, b_size = read(sys.argv[2])
print(f"{sys.argv[1]}: {a_size} bytes of data, {len(a_data)} inflated")
print(f"{sys.argv[2]}: {b_size} bytes of data, {len(b_data)} inflated")
if a_fields != b_fields:
    print("header fields differ:", a_fields, b_fields)
    sys.exit(1)
if a_data != b_data:
    print("pixels differ")
    sys.exit(1)
print("same header fields, same pixels")
