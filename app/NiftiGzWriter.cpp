#include "NiftiGzWriter.h"

#include "ImageFormats.h"
#include "OutputFiles.h"
#include "ParallelDeflate.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace ccaapp
{
namespace
{

// NIfTI-1's header, little-endian as ITK writes it on this machine.
constexpr std::size_t HeaderSize = 348;    // sizeof_hdr, at 0
constexpr std::size_t DimensionsAt = 40;   // short dim[8]: the number of axes, then each axis's size
constexpr std::size_t VoxelOffsetAt = 108; // float vox_offset: where the pixels start
constexpr std::size_t MagicAt = 344;       // "n+1" in a .nii

template <typename T>
T
Field(const std::string & header, std::size_t at)
{
  T value;
  std::memcpy(&value, header.data() + at, sizeof(T));
  return value;
}

} // namespace

std::string
ReadNiftiHeader(const std::string & path, const std::string & displayPath)
{
  std::ifstream     file(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (bytes.size() < HeaderSize + 4 || Field<std::int32_t>(bytes, 0) != static_cast<std::int32_t>(HeaderSize) ||
      bytes.compare(MagicAt, 4, std::string("n+1\0", 4)) != 0)
  {
    FailWriting(displayPath, "ITK's NIfTI writer did not write a NIfTI-1 header");
  }
  const auto offset = static_cast<std::size_t>(Field<float>(bytes, VoxelOffsetAt));
  if (offset < HeaderSize || offset > bytes.size())
  {
    FailWriting(displayPath, "ITK's NIfTI header gives its pixels an offset outside the file");
  }
  return bytes.substr(0, offset);
}

void
WriteNiftiGz(const std::string &   path,
             const std::string &   displayPath,
             std::string           itkHeader,
             const ImageGeometry & geometry,
             PixelComponent        component,
             const void *          pixels,
             int                   zlibLevel)
{
  const std::uint64_t bytes = PixelBytes(geometry, component);
  const unsigned int  dimension = geometry.dimension;
  if (Field<std::int16_t>(itkHeader, DimensionsAt) != static_cast<std::int16_t>(dimension))
  {
    FailWriting(displayPath,
                "ITK's NIfTI header has " + std::to_string(Field<std::int16_t>(itkHeader, DimensionsAt)) +
                  " axes for a " + std::to_string(dimension) + "D image");
  }
  for (unsigned int axis = 0; axis < dimension; ++axis)
  {
    if (geometry.size[axis] > 32767)
    {
      FailWriting(displayPath,
                  "NIfTI-1 holds up to 32767 pixels an axis, and this image has " +
                    std::to_string(geometry.size[axis]) + "; use .nrrd or .mha");
    }
    const auto value = static_cast<std::int16_t>(geometry.size[axis]);
    std::memcpy(&itkHeader[DimensionsAt + 2 * (axis + 1)], &value, sizeof(value));
  }
  CheckedFile file(path, displayPath);
  WriteGzip(file, displayPath, zlibLevel, itkHeader, pixels, bytes);
  file.Finish();
}

} // namespace ccaapp
