// Where an image's pixels lie, as the program's own image writers take it
// (NrrdWriter, MetaImageWriter), and the text of its numbers.
#ifndef CudaLabelStatisticsApp_ImageGeometry_h
#define CudaLabelStatisticsApp_ImageGeometry_h

#include <array>
#include <charconv>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

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
