// TIFF and BigTIFF, either byte order: the directory chain (no loops), and for
// each page its strips or tiles inside the file and large enough for the rows
// they hold (decompressed for deflate; bounded by the largest possible
// expansion for LZW and PackBits).
#include "ImageFileCheckDetail.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace ccaapp
{
namespace filecheck
{
namespace
{

class TiffReader
{
public:
  explicit TiffReader(const BinaryFile & file)
    : m_File(file)
  {
    unsigned char     header[16] = {};
    const std::string start = file.ReadUpTo(0, 16);
    if (start.size() < 8)
    {
      file.Fail("the file is truncated: a TIFF header is 8 bytes");
    }
    std::memcpy(header, start.data(), start.size());
    if (header[0] == 'I' && header[1] == 'I')
      m_BigEndian = false;
    else if (header[0] == 'M' && header[1] == 'M')
      m_BigEndian = true;
    else
      file.Fail("not a TIFF file (no II or MM byte order mark)");
    const unsigned version = static_cast<unsigned>(Unsigned(header + 2, 2));
    if (version == 42)
    {
      m_FirstDirectory = Unsigned(header + 4, 4);
    }
    else if (version == 43 && start.size() >= 16 && Unsigned(header + 4, 2) == 8)
    {
      m_Big = true;
      m_FirstDirectory = Unsigned(header + 8, 8);
    }
    else
    {
      file.Fail("not a TIFF or BigTIFF file (version " + std::to_string(version) + ")");
    }
  }

  std::uint64_t
  Unsigned(const unsigned char * bytes, int count) const
  {
    std::uint64_t value = 0;
    for (int i = 0; i < count; ++i)
    {
      const int at = m_BigEndian ? i : count - 1 - i;
      value = (value << 8) | bytes[at];
    }
    return value;
  }

  std::uint64_t
  FirstDirectory() const
  {
    return m_FirstDirectory;
  }

  struct Entry
  {
    unsigned      type = 0;
    std::uint64_t count = 0;
    std::uint64_t valueOffset = 0; ///< file offset of the values
  };

  /** The entries of the directory at `offset`; `next` receives the next directory's offset. */
  std::map<unsigned, Entry>
  Directory(std::uint64_t offset, std::uint64_t & next) const
  {
    const int     countBytes = m_Big ? 8 : 2;
    const int     entryBytes = m_Big ? 20 : 12;
    unsigned char buffer[20];
    m_File.Read(offset, buffer, static_cast<std::size_t>(countBytes));
    const std::uint64_t entries = Unsigned(buffer, countBytes);
    if (entries == 0 || entries > 4096)
    {
      m_File.Fail("a TIFF directory has " + std::to_string(entries) + " entries");
    }
    std::map<unsigned, Entry> directory;
    for (std::uint64_t i = 0; i < entries; ++i)
    {
      const std::uint64_t at =
        offset + static_cast<std::uint64_t>(countBytes) + i * static_cast<std::uint64_t>(entryBytes);
      m_File.Read(at, buffer, static_cast<std::size_t>(entryBytes));
      Entry          entry;
      const unsigned tag = static_cast<unsigned>(Unsigned(buffer, 2));
      entry.type = static_cast<unsigned>(Unsigned(buffer + 2, 2));
      entry.count = Unsigned(buffer + 4, m_Big ? 8 : 4);
      const int           inlineBytes = m_Big ? 8 : 4;
      const std::uint64_t valueBytes = Multiply(m_File, entry.count, TypeBytes(entry.type), "a TIFF tag's size");
      entry.valueOffset = valueBytes <= static_cast<std::uint64_t>(inlineBytes)
                            ? at + 4 + (m_Big ? 8 : 4)
                            : Unsigned(buffer + (m_Big ? 12 : 8), inlineBytes);
      // Every tag's values lie in the file: a cut file loses its last ones.
      if (entry.valueOffset > m_File.Size() || valueBytes > m_File.Size() - entry.valueOffset)
      {
        m_File.Fail("the file is truncated: the values of TIFF tag " + std::to_string(tag) +
                    " end past the end of the file");
      }
      directory[tag] = entry;
    }
    m_File.Read(offset + static_cast<std::uint64_t>(countBytes) + entries * static_cast<std::uint64_t>(entryBytes),
                buffer,
                static_cast<std::size_t>(m_Big ? 8 : 4));
    next = Unsigned(buffer, m_Big ? 8 : 4);
    return directory;
  }

  static std::uint64_t
  TypeBytes(unsigned type)
  {
    switch (type)
    {
      case 1:
      case 2:
      case 6:
      case 7:
        return 1;
      case 3:
      case 8:
        return 2;
      case 4:
      case 9:
      case 11:
      case 13:
        return 4;
      case 5:
      case 10:
      case 12:
      case 16:
      case 17:
      case 18:
        return 8;
      default:
        return 1;
    }
  }

  /** The integer values of an entry (BYTE, SHORT, LONG, LONG8), at most `maximum` of them. */
  std::vector<std::uint64_t>
  Values(const Entry & entry, const char * name, std::uint64_t maximum) const
  {
    const std::uint64_t bytes = entry.type == 1    ? 1
                                : entry.type == 3  ? 2
                                : entry.type == 4  ? 4
                                : entry.type == 16 ? 8
                                                   : 0;
    if (bytes == 0)
    {
      m_File.Fail(std::string("the TIFF tag ") + name + " has a non-integer type");
    }
    if (entry.count > maximum)
    {
      m_File.Fail(std::string("the TIFF tag ") + name + " has " + std::to_string(entry.count) + " values");
    }
    std::string raw(static_cast<std::size_t>(entry.count * bytes), '\0');
    m_File.Read(entry.valueOffset, &raw[0], raw.size());
    std::vector<std::uint64_t> values;
    for (std::uint64_t i = 0; i < entry.count; ++i)
    {
      values.push_back(
        Unsigned(reinterpret_cast<const unsigned char *>(raw.data()) + i * bytes, static_cast<int>(bytes)));
    }
    return values;
  }

private:
  const BinaryFile & m_File;
  bool               m_BigEndian = false;
  bool               m_Big = false;
  std::uint64_t      m_FirstDirectory = 0;
};

std::uint64_t
DivideUp(std::uint64_t a, std::uint64_t b)
{
  return a / b + (a % b != 0 ? 1 : 0);
}

} // namespace

ImageFileLayout
CheckTiff(const std::string & path)
{
  const BinaryFile file(path);
  const TiffReader tiff(file);
  ImageFileLayout  layout;
  layout.format = ImageFormat::Tiff;
  layout.files.push_back(path);

  std::set<std::uint64_t> visited;
  std::uint64_t           pages = 0;
  std::uint64_t           width = 0, length = 0, bitsPerSample = 0, samplesPerPixel = 0;
  for (std::uint64_t offset = tiff.FirstDirectory(); offset != 0;)
  {
    if (!visited.insert(offset).second || visited.size() > 65536)
    {
      file.Fail("the TIFF directories form a loop");
    }
    std::uint64_t next = 0;
    const auto    directory = tiff.Directory(offset, next);
    offset = next;
    auto single = [&](unsigned tag, const char * name, std::uint64_t fallback, bool required) {
      const auto found = directory.find(tag);
      if (found == directory.end())
      {
        if (required)
        {
          file.Fail(std::string("a TIFF directory has no ") + name);
        }
        return fallback;
      }
      const auto values = tiff.Values(found->second, name, 1);
      if (values.empty())
      {
        file.Fail(std::string("the TIFF tag ") + name + " has no value");
      }
      return values[0];
    };
    const std::uint64_t subfileType = single(254, "NewSubfileType", 0, false);
    const std::uint64_t w = single(256, "ImageWidth", 0, true);
    const std::uint64_t l = single(257, "ImageLength", 0, true);
    const std::uint64_t spp = single(277, "SamplesPerPixel", 1, false);
    const std::uint64_t compression = single(259, "Compression", 1, false);
    const std::uint64_t planar = single(284, "PlanarConfiguration", 1, false);
    if (w == 0 || l == 0 || w > INT32_MAX || l > INT32_MAX)
    {
      file.Fail("the TIFF size " + std::to_string(w) + " x " + std::to_string(l) + " is not in 1 .. 2^31-1");
    }
    if (spp == 0 || spp > 16 || (planar != 1 && planar != 2))
    {
      file.Fail("the TIFF samples per pixel or planar configuration is not usable");
    }
    std::uint64_t bps = 1;
    if (directory.count(258))
    {
      const auto values = tiff.Values(directory.at(258), "BitsPerSample", spp);
      bps = values.empty() ? 0 : values[0];
      for (const auto v : values)
      {
        if (v != bps)
        {
          file.Fail("the TIFF samples have different bit depths");
        }
      }
    }
    if (bps != 1 && bps != 2 && bps != 4 && bps != 8 && bps != 16 && bps != 32 && bps != 64)
    {
      file.Fail("the TIFF bit depth " + std::to_string(bps) + " is not supported");
    }
    // The largest expansion of each compression: a strip this much smaller than its rows is short.
    std::uint64_t expansion = 0;
    switch (compression)
    {
      case 1:
        expansion = 1;
        break;
      case 5: // LZW: 12-bit codes of strings up to 4096 bytes
        expansion = 2731;
        break;
      case 8:
      case 32946: // deflate: decompressed and checked exactly below
        expansion = 0;
        break;
      case 32773: // PackBits: 2 bytes repeat one byte up to 128 times
        expansion = 64;
        break;
      default:
        file.Fail("the TIFF compression " + std::to_string(compression) +
                  " is not supported (none, LZW, deflate and PackBits are)");
    }

    // Strips or tiles: how many, and the bytes each holds once decompressed.
    const bool          tiled = directory.count(322) || directory.count(324);
    const std::uint64_t planes = planar == 2 ? spp : 1;
    const std::uint64_t samplesPerUnitRow = planar == 2 ? 1 : spp;
    std::uint64_t       units = 0, unitWidth = w, unitRows = 0;
    if (tiled)
    {
      unitWidth = single(322, "TileWidth", 0, true);
      unitRows = single(323, "TileLength", 0, true);
      if (unitWidth == 0 || unitRows == 0 || unitWidth > (1u << 20) || unitRows > (1u << 20))
      {
        file.Fail("the TIFF tile size is not usable");
      }
      units = Multiply(file, DivideUp(w, unitWidth) * DivideUp(l, unitRows), planes, "the TIFF tile count");
    }
    else
    {
      unitRows = std::min(single(278, "RowsPerStrip", l, false), l);
      if (unitRows == 0)
      {
        file.Fail("the TIFF RowsPerStrip is 0");
      }
      units = DivideUp(l, unitRows) * planes;
    }
    const std::uint64_t rowBytes =
      DivideUp(Multiply(file, Multiply(file, unitWidth, samplesPerUnitRow, "a TIFF row"), bps, "a TIFF row"), 8);
    const unsigned offsetsTag = tiled ? 324 : 273;
    const unsigned countsTag = tiled ? 325 : 279;
    if (!directory.count(offsetsTag) || !directory.count(countsTag))
    {
      file.Fail(tiled ? "a tiled TIFF directory has no TileOffsets or TileByteCounts"
                      : "a TIFF directory has no StripOffsets or StripByteCounts");
    }
    const auto offsets = tiff.Values(directory.at(offsetsTag), "StripOffsets", 1u << 24);
    const auto counts = tiff.Values(directory.at(countsTag), "StripByteCounts", 1u << 24);
    if (offsets.size() != units || counts.size() != units)
    {
      file.Fail("a TIFF directory lists " + std::to_string(offsets.size()) + " strips or tiles where its size needs " +
                std::to_string(units));
    }
    for (std::uint64_t u = 0; u < units; ++u)
    {
      // The last strip of a plane may hold fewer rows; tiles are always whole.
      const std::uint64_t strip = u % DivideUp(l, unitRows);
      const std::uint64_t rows = tiled ? unitRows : std::min(unitRows, l - strip * unitRows);
      const std::uint64_t expected = Multiply(file, rowBytes, rows, "a TIFF strip");
      if (offsets[u] > file.Size() || counts[u] > file.Size() - offsets[u])
      {
        file.Fail("the file is truncated: TIFF strip or tile " + std::to_string(u) + " ends past the end of the file");
      }
      if (expansion == 0)
      {
        RequireInflatedBytes(file, offsets[u], counts[u], expected, "strip " + std::to_string(u));
      }
      else if (counts[u] == 0 || DivideUp(expected, expansion) > counts[u])
      {
        file.Fail("the file is truncated: TIFF strip or tile " + std::to_string(u) + " holds " +
                  std::to_string(counts[u]) + " bytes, too few for its " + std::to_string(expected));
      }
    }
    if ((subfileType & 1) != 0)
    {
      continue; // a reduced-resolution copy (thumbnail) is not a page
    }
    if (pages > 0 && (w != width || l != length || bps != bitsPerSample || spp != samplesPerPixel))
    {
      file.Fail("the TIFF pages differ in size or pixel type");
    }
    width = w;
    length = l;
    bitsPerSample = bps;
    samplesPerPixel = spp;
    ++pages;
  }
  if (pages == 0)
  {
    file.Fail("the TIFF file has no image");
  }
  layout.size = { width, length };
  if (pages > 1)
  {
    layout.size.push_back(pages);
  }
  layout.pixels = PixelCount(file, layout.size);
  return layout;
}

} // namespace filecheck
} // namespace ccaapp
