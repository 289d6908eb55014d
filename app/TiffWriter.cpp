#include "TiffWriter.h"

#include "OutputFiles.h"
#include "ParallelInOrder.h"

#include "itk_zlib.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace ccaapp
{
namespace
{

enum : std::uint16_t
{
  Short = 3,
  Long = 4,
  Rational = 5
};

/** A resolution in pixels per inch as a TIFF RATIONAL (numerator,
 *  denominator): a denominator of up to 10^6 that keeps the numerator in 32
 *  bits, so that 25.4 / resolution gives the spacing back to about 1e-6. */
std::pair<std::uint32_t, std::uint32_t>
ResolutionRational(double pixelsPerInch)
{
  const double  largest = 4294967295.0;
  std::uint32_t denominator = 1000000;
  if (pixelsPerInch * denominator > largest)
  {
    denominator = static_cast<std::uint32_t>(std::max(1.0, std::floor(largest / pixelsPerInch)));
  }
  const double numerator = std::min(largest, std::max(1.0, std::round(pixelsPerInch * denominator)));
  return { static_cast<std::uint32_t>(numerator), denominator };
}

struct Entry
{
  std::uint16_t tag;
  std::uint16_t type;
  std::uint32_t count;
  std::uint32_t value; ///< the value itself (count 1) or the offset of the values
};

void
Put16(std::string & out, std::uint16_t value)
{
  out.push_back(static_cast<char>(value & 0xff));
  out.push_back(static_cast<char>(value >> 8));
}

void
Put32(std::string & out, std::uint32_t value)
{
  for (int i = 0; i < 4; ++i)
  {
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
}

} // namespace

void
WriteTiff(CheckedFile &       file,
          const std::string & displayPath,
          std::uint32_t       width,
          std::uint32_t       height,
          std::uint32_t       pages,
          PixelComponent      component,
          const double (&spacing)[2],
          int                                                               zlibLevel,
          const std::function<void(std::uint32_t, std::uint32_t, void *)> & fillRow)
{
  // ITK's TIFF writer and reader: XResolution = 25.4 / spacing, in inches.
  const bool resolution = spacing[0] > 0 && spacing[1] > 0 && std::isfinite(spacing[0]) && std::isfinite(spacing[1]);
  const int  bytes = ComponentBytes(component);
  const bool isSigned =
    component == PixelComponent::Int8 || component == PixelComponent::Int16 || component == PixelComponent::Int32;
  const std::size_t rowBytes = static_cast<std::size_t>(width) * static_cast<std::size_t>(bytes);
  // About 256 KiB per strip.
  const std::uint32_t rowsPerStrip = static_cast<std::uint32_t>(
    std::max<std::size_t>(1, std::min<std::size_t>(height, (std::size_t{ 1 } << 18) / rowBytes)));
  const std::uint32_t strips = (height + rowsPerStrip - 1) / rowsPerStrip;
  auto                checkOffset = [&](std::uint64_t offset) {
    if (offset > 0xffffffffu)
    {
      FailWriting(displayPath,
                  "TIFF files are written up to 4 GiB, and this one is larger; use .nrrd, .nii.gz or .mha");
    }
    return static_cast<std::uint32_t>(offset);
  };

  std::string header = "II";
  Put16(header, 42);
  Put32(header, 0); // the first directory's offset, set once it is written
  file.Write(header);
  std::uint64_t previousNextOffset = 4; // where the offset of the next directory goes

  // Strips are filled and deflated in parallel on ITK's pool and written
  // in order (MakeInParallelWriteInOrder); a page's directory follows its
  // last strip.
  const std::uint64_t totalStrips = static_cast<std::uint64_t>(pages) * strips;
  auto                encode = [&](std::uint64_t job, std::vector<Bytef> & out) {
    const auto          z = static_cast<std::uint32_t>(job / strips);
    const std::uint32_t first = static_cast<std::uint32_t>(job % strips) * rowsPerStrip;
    const std::uint32_t rows = std::min(rowsPerStrip, height - first);
    std::vector<Bytef>  strip(rowBytes * rows);
    for (std::uint32_t r = 0; r < rows; ++r)
    {
      fillRow(z, first + r, &strip[r * rowBytes]);
    }
    if (zlibLevel == 0)
    {
      out.swap(strip);
      return true;
    }
    uLongf size = compressBound(static_cast<uLong>(strip.size()));
    out.resize(size);
    const bool done = compress2(out.data(), &size, strip.data(), static_cast<uLong>(strip.size()), zlibLevel) == Z_OK;
    out.resize(size);
    return done;
  };
  std::vector<std::uint32_t> offsets(strips), counts(strips);
  auto                       writeDirectory = [&](std::uint32_t z) {
    // Value arrays of more than one entry live outside the directory.
    std::string         arrays;
    const std::uint64_t arraysAt = file.Position();
    std::uint32_t       offsetsValue = offsets[0];
    std::uint32_t       countsValue = counts[0];
    if (strips > 1)
    {
      offsetsValue = checkOffset(arraysAt);
      for (const auto offset : offsets)
        Put32(arrays, offset);
      countsValue = checkOffset(arraysAt + arrays.size());
      for (const auto count : counts)
        Put32(arrays, count);
    }
    std::uint32_t resolutionAt[2] = { 0, 0 };
    for (int axis = 0; axis < 2 && resolution; ++axis)
    {
      const auto rational = ResolutionRational(25.4 / spacing[axis]);
      resolutionAt[axis] = checkOffset(arraysAt + arrays.size());
      Put32(arrays, rational.first);
      Put32(arrays, rational.second);
    }
    if ((arraysAt + arrays.size()) % 2 != 0)
    {
      arrays.push_back('\0'); // directories start on a word boundary
    }
    file.Write(arrays);

    std::vector<Entry> entries = {
      { 254, Long, 1, pages > 1 ? 2u : 0u }, // NewSubfileType: a page of a multi-page file
      { 256, Long, 1, width },
      { 257, Long, 1, height },
      { 258, Short, 1, static_cast<std::uint32_t>(8 * bytes) }, // BitsPerSample
      { 259, Short, 1, zlibLevel == 0 ? 1u : 8u },              // Compression: none or deflate
      { 262, Short, 1, 1 },                // PhotometricInterpretation: BlackIsZero
      { 273, Long, strips, offsetsValue }, // StripOffsets
      { 277, Short, 1, 1 },                // SamplesPerPixel
      { 278, Long, 1, rowsPerStrip },
      { 279, Long, strips, countsValue }, // StripByteCounts
      { 284, Short, 1, 1 },               // PlanarConfiguration: contiguous
      { 297, Short, 2, (pages > 1 ? (z | (pages << 16)) : 0u) }, // PageNumber: page, of pages
      { 339, Short, 1, isSigned ? 2u : 1u },                     // SampleFormat
    };
    if (resolution)
    {
      entries.push_back({ 282, Rational, 1, resolutionAt[0] }); // XResolution
      entries.push_back({ 283, Rational, 1, resolutionAt[1] }); // YResolution
      entries.push_back({ 296, Short, 1, 2 });                  // ResolutionUnit: inch
    }
    // A directory lists its entries in increasing order of tags.
    std::sort(entries.begin(), entries.end(), [](const Entry & a, const Entry & b) { return a.tag < b.tag; });
    const std::uint32_t directoryAt = checkOffset(file.Position());
    std::string         directory;
    Put16(directory, static_cast<std::uint16_t>(entries.size()));
    for (const auto & entry : entries)
    {
      Put16(directory, entry.tag);
      Put16(directory, entry.type);
      Put32(directory, entry.count);
      if (entry.type == Short && entry.count == 1)
      {
        Put16(directory, static_cast<std::uint16_t>(entry.value));
        Put16(directory, 0);
      }
      else
      {
        Put32(directory, entry.value); // two shorts (PageNumber) pack into it as well
      }
    }
    Put32(directory, 0); // the next directory's offset, set when there is one
    file.Write(directory);
    std::string link;
    Put32(link, directoryAt);
    file.WriteAt(previousNextOffset, link.data(), link.size());
    previousNextOffset = directoryAt + 2 + 12 * entries.size();
  };

  MakeInParallelWriteInOrder<std::vector<Bytef>>(
    totalStrips,
    [&](std::uint64_t job, std::vector<Bytef> & out) {
      if (!encode(job, out))
      {
        FailWriting(displayPath, "zlib could not compress a strip");
      }
    },
    [&](std::uint64_t job, const std::vector<Bytef> & out) {
      const auto s = static_cast<std::uint32_t>(job % strips);
      offsets[s] = checkOffset(file.Position());
      counts[s] = static_cast<std::uint32_t>(out.size());
      file.Write(out.data(), out.size());
      if (s + 1 == strips)
      {
        writeDirectory(static_cast<std::uint32_t>(job / strips));
      }
    });
}

} // namespace ccaapp
