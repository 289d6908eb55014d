// NIfTI-1 and Analyze 7.5: the 348-byte header (either byte order), in a .nii
// (data at vox_offset), a .nii.gz (the same, gzip-compressed) or a .hdr whose
// data is the .img (or .img.gz) beside it.
#include "ImageFileCheckDetail.h"

#include <cmath>
#include <cstring>
#include <unistd.h>

namespace ccaapp
{
namespace filecheck
{
namespace
{

constexpr std::size_t HeaderBytes = 348;

/** Bytes per voxel of a NIfTI datatype code, 0 for the ones ITK cannot read as scalars or vectors. */
std::uint64_t
DatatypeBytes(int code)
{
  switch (code)
  {
    case 2:   // uint8
    case 256: // int8
      return 1;
    case 4:   // int16
    case 512: // uint16
      return 2;
    case 8:   // int32
    case 768: // uint32
    case 16:  // float32
      return 4;
    case 1024: // int64
    case 1280: // uint64
    case 64:   // float64
    case 32:   // complex64
      return 8;
    case 128: // RGB24
      return 3;
    case 2304: // RGBA32
      return 4;
    case 1792: // complex128
      return 16;
    default:
      return 0;
  }
}

struct HeaderReader
{
  const std::string & bytes;
  bool                swap;

  template <typename T>
  T
  Get(std::size_t offset) const
  {
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, bytes.data() + offset, sizeof(T));
    if (swap)
    {
      for (std::size_t i = 0; i < sizeof(T) / 2; ++i)
      {
        std::swap(raw[i], raw[sizeof(T) - 1 - i]);
      }
    }
    T value;
    std::memcpy(&value, raw, sizeof(T));
    return value;
  }
};

bool
EndsWithLower(const std::string & path, const std::string & suffix)
{
  const std::string lower = Lower(path);
  return lower.size() >= suffix.size() && lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

ImageFileLayout
CheckNifti(const std::string & path, ImageFormat format)
{
  const BinaryFile file(path);
  std::string      header;
  if (format == ImageFormat::NiftiGz)
  {
    // The header is the start of the decompressed stream.
    InflatedSize(file, 0, UINT64_MAX, UINT64_MAX, &header, HeaderBytes);
  }
  else
  {
    header = file.ReadUpTo(0, HeaderBytes);
  }
  if (header.size() < HeaderBytes)
  {
    file.Fail("the file is truncated: a NIfTI header is " + std::to_string(HeaderBytes) + " bytes, the file holds " +
              std::to_string(header.size()));
  }
  std::int32_t sizeofHeader = 0;
  std::memcpy(&sizeofHeader, header.data(), 4);
  const bool         swap = sizeofHeader != static_cast<std::int32_t>(HeaderBytes);
  const HeaderReader read{ header, swap };
  if (read.Get<std::int32_t>(0) != static_cast<std::int32_t>(HeaderBytes))
  {
    file.Fail("not a NIfTI-1 or Analyze header (sizeof_hdr is not 348)");
  }
  const std::string magic = header.substr(344, 4);
  const bool        singleFile = magic == std::string("n+1\0", 4);
  if (!singleFile && magic != std::string("ni1\0", 4) && magic.find_first_not_of('\0') != std::string::npos)
  {
    file.Fail("the NIfTI magic is neither n+1 nor ni1");
  }
  if (singleFile != (format != ImageFormat::NiftiPair))
  {
    file.Fail(singleFile ? "the header says the data is in this file (n+1), but a .hdr names a .img pair"
                         : "the header says the data is in a .img file, but a .nii holds its own data");
  }

  const int dimensions = read.Get<std::int16_t>(40);
  if (dimensions < 1 || dimensions > 7)
  {
    file.Fail("the NIfTI dim[0] " + std::to_string(dimensions) + " is not in 1 .. 7");
  }
  ImageFileLayout layout;
  layout.format = format;
  for (int d = 1; d <= dimensions; ++d)
  {
    const int size = read.Get<std::int16_t>(40 + 2 * d);
    if (size < 1)
    {
      file.Fail("the NIfTI size dim[" + std::to_string(d) + "] = " + std::to_string(size) + " is not positive");
    }
    layout.size.push_back(static_cast<std::uint64_t>(size));
  }
  layout.pixels = PixelCount(file, layout.size);
  const int           datatype = read.Get<std::int16_t>(70);
  const std::uint64_t voxelBytes = DatatypeBytes(datatype);
  if (voxelBytes == 0)
  {
    file.Fail("the NIfTI datatype " + std::to_string(datatype) + " is not supported");
  }
  const std::uint64_t payload = Multiply(file, layout.pixels, voxelBytes, "the data size");

  // vox_offset is a float; nifti1_io truncates it and reads a single file's data no earlier than byte 348.
  const float voxOffset = read.Get<float>(108);
  if (!std::isfinite(voxOffset) || voxOffset < 0 || voxOffset > 1e12f)
  {
    file.Fail("the NIfTI vox_offset is not a usable byte offset");
  }
  std::uint64_t offset = static_cast<std::uint64_t>(voxOffset);
  if (singleFile && offset < HeaderBytes)
  {
    offset = HeaderBytes;
  }
  std::uint64_t needed = 0;
  if (__builtin_add_overflow(offset, payload, &needed))
  {
    file.Fail("the NIfTI vox_offset and data size overflow 64 bits");
  }

  layout.files.push_back(path);
  if (format == ImageFormat::Nifti)
  {
    RequireBytes(file, 0, needed, "header and pixel data");
  }
  else if (format == ImageFormat::NiftiGz)
  {
    RequireInflatedBytes(file, 0, UINT64_MAX, needed, "header and pixel data");
  }
  else
  {
    // The data file beside the .hdr: .img, or .img.gz, as nifti1_io looks for them.
    const std::string stem = path.substr(0, path.size() - 4);
    std::string       dataPath;
    for (const char * extension : { ".img", ".IMG", ".img.gz", ".IMG.gz" })
    {
      if (::access((stem + extension).c_str(), F_OK) == 0)
      {
        dataPath = stem + extension;
        break;
      }
    }
    if (dataPath.empty())
    {
      file.Fail("the data file " + stem + ".img beside the header does not exist");
    }
    layout.files.push_back(dataPath);
    const BinaryFile data(dataPath);
    if (EndsWithLower(dataPath, ".gz"))
    {
      RequireInflatedBytes(data, 0, UINT64_MAX, needed, "pixel data");
    }
    else
    {
      RequireBytes(data, 0, needed, "pixel data");
    }
  }
  return layout;
}

} // namespace filecheck
} // namespace ccaapp
