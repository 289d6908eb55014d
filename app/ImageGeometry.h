// Where an image's pixels lie, as the program's own image writers take it
// (NrrdWriter, MetaImageWriter, NiftiGzWriter), and the text of its numbers.
#ifndef CudaLabelStatisticsApp_ImageGeometry_h
#define CudaLabelStatisticsApp_ImageGeometry_h

#include "ImageFormats.h"

#include <array>
#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// The writers store pixels as they lie in memory and say "little-endian".
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#  error "the program's image writers assume a little-endian host"
#endif

namespace ccaapp
{

/** ITK's size, spacing, origin and direction (direction[row][column];
 *  column d is axis d's direction) of a 2D or 3D image, and the string
 *  entries of its metadata. */
struct ImageGeometry
{
  unsigned int                                     dimension = 3;
  std::array<std::uint64_t, 3>                     size{};
  std::array<double, 3>                            spacing{};
  std::array<double, 3>                            origin{};
  std::array<std::array<double, 3>, 3>             direction{};
  std::vector<std::pair<std::string, std::string>> keyValues; ///< string metadata, written as the format allows
};

/** The bytes of the image's pixels of `component`; a logic error for
 *  dimensions other than 1 to 3. */
inline std::uint64_t
PixelBytes(const ImageGeometry & geometry, PixelComponent component)
{
  if (geometry.dimension < 1 || geometry.dimension > 3)
  {
    throw std::logic_error("the program's image writers take images of 1 to 3 dimensions");
  }
  std::uint64_t bytes = static_cast<std::uint64_t>(ComponentBytes(component));
  for (unsigned int axis = 0; axis < geometry.dimension; ++axis)
  {
    bytes *= geometry.size[axis];
  }
  return bytes;
}

/** The file name of a path, without its folder (a header names its data file so). */
inline std::string
FileNameOf(const std::string & path)
{
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/** The shortest text that reads back as the same double (ITK's readers
 *  find the image's own spacing, origin and direction, bit for bit). */
inline std::string
ShortestText(double value)
{
  char       text[32];
  const auto end = std::to_chars(text, text + sizeof(text), value).ptr;
  return std::string(text, end);
}

} // namespace ccaapp

#endif
