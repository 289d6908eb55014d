// The corruption corpus: small valid files of every input format the README
// lists are written here (by ITK's writers, and by the program for its own
// TIFF), then damaged: truncated at many offsets, header fields flipped to
// huge, wrapping, zero, negative and inconsistent values, wrong pixel types.
// The program must read each valid file, and refuse each damaged one with
// exit status 1, one line "error: ..." on stderr, no signal, and no file
// written (its folder holds exactly what it held before).
//
// Usage: CorruptInputCheck PROGRAM WORKDIR [SEED]
//   The random truncation offsets come from SEED (printed; default 8).
#include "AppTestSupport.h"
#include "ZlibInflate.h"

#include "itkNrrdImageIO.h"
#include "itkTIFFImageIO.h"
#include "itkVTKImageIO.h"

#include "itk_zlib.h"

#include <cstring>
#include <functional>
#include <set>

namespace
{

using namespace ccaapptest;

/** One file of a variant: its name and bytes. */
struct FileBytes
{
  std::string name;
  std::string bytes;
};

/** A valid input: the file the program is given first, then its data file (if any). */
struct Variant
{
  std::string            name;
  std::vector<FileBytes> files;
  size_t                 components = 0; ///< what the program must find in the valid file
};

/** A damaged input and why it is damaged. */
struct BadInput
{
  std::string            what;
  std::vector<FileBytes> files;
};

// ---- making the valid files ----------------------------------------------------------

using ImageType2 = itk::Image<unsigned char, 2>;
using ImageType3 = itk::Image<unsigned char, 3>;

template <typename TImage>
void
WriteWith(const TImage * image, const std::string & path, itk::ImageIOBase * io, bool compress)
{
  auto writer = itk::ImageFileWriter<TImage>::New();
  writer->SetInput(image);
  writer->SetFileName(path);
  if (io)
  {
    writer->SetImageIO(io);
  }
  writer->SetUseCompression(compress);
  writer->Update();
}

/** Reads the files a writer produced in `dir` into a variant. */
Variant
Collect(const std::string & dir, const std::string & name, const std::vector<std::string> & fileNames)
{
  Variant variant;
  variant.name = name;
  for (const auto & file : fileNames)
  {
    variant.files.push_back({ file, ReadText(dir + "/" + file) });
    Require(!variant.files.back().bytes.empty(), "could not make " + file);
  }
  return variant;
}

std::vector<Variant>
MakeVariants(const std::string & program, const std::string & dir)
{
  // 3D for the formats that hold it, 2D for PNG; a few components each.
  const auto           volume = RandomImage<unsigned char, 3>(itk::Size<3>{ { 13, 11, 5 } }, { 0, 0, 0, 1 }, 31);
  const auto           slice = RandomImage<unsigned char, 2>(itk::Size<2>{ { 37, 29 } }, { 0, 0, 255 }, 32);
  std::vector<Variant> variants;
  auto                 make = [&](const std::string & name, const std::vector<std::string> & files, auto write) {
    FreshDirectory(dir + "/make");
    write(dir + "/make/" + files.front());
    variants.push_back(Collect(dir + "/make", name, files));
  };
  make("png", { "in.png" }, [&](const std::string & p) { WriteWith(slice.GetPointer(), p, nullptr, false); });
  make("nrrd-raw", { "in.nrrd" }, [&](const std::string & p) { WriteWith(volume.GetPointer(), p, nullptr, false); });
  make("nrrd-gzip", { "in.nrrd" }, [&](const std::string & p) { WriteWith(volume.GetPointer(), p, nullptr, true); });
  make("nhdr-raw", { "in.nhdr", "in.raw" }, [&](const std::string & p) {
    WriteWith(volume.GetPointer(), p, nullptr, false);
  });
  make("nhdr-gzip", { "in.nhdr", "in.raw.gz" }, [&](const std::string & p) {
    WriteWith(volume.GetPointer(), p, nullptr, true);
  });
  make("nii", { "in.nii" }, [&](const std::string & p) { WriteWith(volume.GetPointer(), p, nullptr, false); });
  make("nii-gz", { "in.nii.gz" }, [&](const std::string & p) { WriteWith(volume.GetPointer(), p, nullptr, true); });
  make("hdr-img", { "in.hdr", "in.img" }, [&](const std::string & p) {
    WriteWith(volume.GetPointer(), p, nullptr, false);
  });
  make("mha-raw", { "in.mha" }, [&](const std::string & p) { WriteWith(volume.GetPointer(), p, nullptr, false); });
  make("mha-zlib", { "in.mha" }, [&](const std::string & p) { WriteWith(volume.GetPointer(), p, nullptr, true); });
  make("mhd-raw", { "in.mhd", "in.raw" }, [&](const std::string & p) {
    WriteWith(volume.GetPointer(), p, nullptr, false);
  });
  make("mhd-zraw", { "in.mhd", "in.zraw" }, [&](const std::string & p) {
    WriteWith(volume.GetPointer(), p, nullptr, true);
  });
  make("vtk-binary", { "in.vtk" }, [&](const std::string & p) { WriteWith(volume.GetPointer(), p, nullptr, false); });
  make("vtk-ascii", { "in.vtk" }, [&](const std::string & p) {
    auto io = itk::VTKImageIO::New();
    io->SetFileTypeToASCII();
    WriteWith(volume.GetPointer(), p, io, false);
  });
  make("tif-itk", { "in.tif" }, [&](const std::string & p) { WriteWith(volume.GetPointer(), p, nullptr, false); });
  make(
    "tif-itk-packbits", { "in.tif" }, [&](const std::string & p) { WriteWith(volume.GetPointer(), p, nullptr, true); });
  // The program's own TIFF writer (deflate strips), through --saveInput.
  make("tif-deflate", { "in.tif" }, [&](const std::string & p) {
    const std::string source = dir + "/make/source.nrrd";
    WriteWith(volume.GetPointer(), source, nullptr, false);
    RunOptions options;
    options.argv = { program, source, "--saveInput", p, "--quiet" };
    options.workDir = dir + "/make";
    const auto result = Run(options);
    Require(result.exitCode == 0, "the program could not write a TIFF: " + result.err);
  });
  return variants;
}

// ---- damaging them -----------------------------------------------------------------

std::string
Replaced(std::string text, const std::string & from, const std::string & to)
{
  const auto at = text.find(from);
  Require(at != std::string::npos, "mutation: the file lacks '" + from + "'");
  return text.replace(at, from.size(), to);
}

/** Replaces the value of the text header line that starts with `key`. */
std::string
WithLine(const std::string & text, const std::string & key, const std::string & line)
{
  const auto at = text.find(key);
  Require(at != std::string::npos, "mutation: the header lacks '" + key + "'");
  const auto end = text.find('\n', at);
  return std::string(text).replace(at, end - at, line);
}

template <typename T>
std::string
Poked(std::string bytes, size_t offset, T value)
{
  Require(offset + sizeof(T) <= bytes.size(), "mutation past the end");
  std::memcpy(&bytes[offset], &value, sizeof(T));
  return bytes;
}

std::uint32_t
ReadLittle32(const std::string & bytes, size_t offset)
{
  std::uint32_t value = 0;
  std::memcpy(&value, bytes.data() + offset, 4);
  return value;
}

/** Offset of the value field of a TIFF tag in the first directory (little-endian classic TIFF). */
size_t
TiffValueOffset(const std::string & tiff, unsigned tag)
{
  const std::uint32_t directory = ReadLittle32(tiff, 4);
  std::uint16_t       count = 0;
  std::memcpy(&count, tiff.data() + directory, 2);
  for (unsigned i = 0; i < count; ++i)
  {
    const size_t  entry = directory + 2 + 12 * i;
    std::uint16_t entryTag = 0;
    std::memcpy(&entryTag, tiff.data() + entry, 2);
    if (entryTag == tag)
    {
      return entry + 8;
    }
  }
  throw Failure("mutation: no TIFF tag " + std::to_string(tag));
}

/** PNG chunks: offset of each chunk's length field, by type (first occurrence). */
size_t
PngChunk(const std::string & png, const std::string & type)
{
  size_t at = 8;
  while (at + 8 <= png.size())
  {
    const std::uint32_t length = __builtin_bswap32(ReadLittle32(png, at));
    if (png.compare(at + 4, 4, type) == 0)
    {
      return at;
    }
    at += 12 + length;
  }
  throw Failure("mutation: no PNG chunk " + type);
}

/** Sets bytes of a PNG chunk's data and recomputes its CRC, so only the content is wrong. */
std::string
PngWithChunkData(std::string png, const std::string & type, size_t offsetInData, const std::string & data)
{
  const size_t        chunk = PngChunk(png, type);
  const std::uint32_t length = __builtin_bswap32(ReadLittle32(png, chunk));
  png.replace(chunk + 8 + offsetInData, data.size(), data);
  const std::uint32_t crc = static_cast<std::uint32_t>(
    crc32(0, reinterpret_cast<const Bytef *>(png.data() + chunk + 4), static_cast<uInt>(4 + length)));
  return Poked(png, chunk + 8 + length, __builtin_bswap32(crc));
}

std::string
BigEndian32(std::uint32_t value)
{
  std::string         bytes(4, '\0');
  const std::uint32_t swapped = __builtin_bswap32(value);
  std::memcpy(&bytes[0], &swapped, 4);
  return bytes;
}

/** Where truncation certainly breaks the file: every byte counts, but for
 *  ASCII numbers only whole numbers (cutting the last digit leaves a number). */
size_t
EssentialLength(const Variant & variant, size_t fileIndex)
{
  const std::string & bytes = variant.files[fileIndex].bytes;
  const std::string & name = variant.files[fileIndex].name;
  if (name == "in.hdr")
  {
    return 348; // the 4 bytes after a NIfTI-1 header (extension flags) are optional
  }
  if ((name == "in.mhd" || name == "in.nhdr") && !bytes.empty() && bytes.back() == '\n')
  {
    return bytes.size() - 1; // a text header may lack its last newline
  }
  if (variant.name == "vtk-ascii")
  {
    const auto lastDigit = bytes.find_last_of("0123456789");
    const auto before = bytes.find_last_not_of("0123456789.e+-", lastDigit);
    return before + 1; // cutting here removes the last number
  }
  return bytes.size();
}

std::vector<BadInput>
Truncations(const Variant & variant, std::mt19937 & random)
{
  std::vector<BadInput> bad;
  for (size_t f = 0; f < variant.files.size(); ++f)
  {
    const size_t                          end = EssentialLength(variant, f);
    std::set<size_t>                      offsets = { 0, 1, 7, 8, 15, 16, 100, 348, 352, end / 2, end - 1 };
    std::uniform_int_distribution<size_t> pick(0, end - 1);
    for (int i = 0; i < (variant.files.size() == 1 ? 6 : 3); ++i)
    {
      offsets.insert(pick(random));
    }
    for (const size_t offset : offsets)
    {
      if (offset >= end)
      {
        continue;
      }
      BadInput input{ variant.name + ": " + variant.files[f].name + " cut to " + std::to_string(offset) + " bytes",
                      variant.files };
      input.files[f].bytes.resize(offset);
      bad.push_back(input);
    }
  }
  return bad;
}

/** gzip compression, for headers inside .nii.gz (ZlibInflate.h inflates them). */
std::string
Gzip(const std::string & data)
{
  z_stream stream{};
  deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&stream, static_cast<uLong>(data.size())) + 64, '\0');
  stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef *>(&out[0]);
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_FINISH);
  out.resize(out.size() - stream.avail_out);
  deflateEnd(&stream);
  return out;
}

/** Header mutations of the variant's first file (or its data file). */
std::vector<BadInput>
FieldMutations(const Variant & v)
{
  std::vector<std::pair<std::string, std::string>> header; // what, new header bytes
  const bool                                       gzipped = v.name == "nii-gz";
  const std::string h = gzipped ? Inflate(v.files[0].bytes, true, v.files[0].name) : v.files[0].bytes;
  const std::string kind = v.name.substr(0, v.name.find('-'));
  if (kind == "nrrd" || kind == "nhdr")
  {
    header = {
      { "sizes 100000 x 100000 x 5", WithLine(h, "sizes:", "sizes: 100000 100000 5") },
      { "sizes wrapping 64 bits", WithLine(h, "sizes:", "sizes: 4294967296 4294967296 2") },
      { "a size of 0", WithLine(h, "sizes:", "sizes: 13 0 5") },
      { "a negative size", WithLine(h, "sizes:", "sizes: 13 -11 5") },
      { "sizes for another dimension", WithLine(h, "dimension:", "dimension: 4") },
      { "type double (8x the data)", WithLine(h, "type:", "type: double") },
      { "type int64", WithLine(h, "type:", "type: int64") },
      { "an unknown type", WithLine(h, "type:", "type: complex") },
      { "encoding bzip2", WithLine(h, "encoding:", "encoding: bzip2") },
      { "a byte skip past the data", Replaced(h, "encoding:", "byte skip: 999999\nencoding:") },
      { "a line skip past the data", Replaced(h, "encoding:", "line skip: 99999\nencoding:") },
      { "no NRRD magic", Replaced(h, "NRRD0004", "NRRX0004") },
    };
    if (kind == "nhdr")
    {
      header.push_back({ "a missing data file", WithLine(h, "data file:", "data file: missing.raw") });
      header.push_back({ "data in a LIST", WithLine(h, "data file:", "data file: LIST") });
    }
    header.push_back(
      v.name.find("gzip") != std::string::npos
        ? std::make_pair(std::string("gzip data declared raw"), WithLine(h, "encoding:", "encoding: raw"))
        : std::make_pair(std::string("raw data declared gzip"), WithLine(h, "encoding:", "encoding: gzip")));
  }
  else if (kind == "nii" || kind == "hdr")
  {
    header = {
      { "dim 32767 x 32767", Poked(Poked(h, 42, std::int16_t{ 32767 }), 44, std::int16_t{ 32767 }) },
      { "7 dims of 32767 (overflow)",
        [&] {
          std::string b = Poked(h, 40, std::int16_t{ 7 });
          for (int d = 1; d <= 7; ++d)
            b = Poked(b, 40 + 2 * d, std::int16_t{ 32767 });
          return b;
        }() },
      { "dim[0] = 0", Poked(h, 40, std::int16_t{ 0 }) },
      { "dim[0] = 9", Poked(h, 40, std::int16_t{ 9 }) },
      { "a negative size", Poked(h, 44, std::int16_t{ -11 }) },
      { "datatype float64 (8x the data)", Poked(Poked(h, 70, std::int16_t{ 64 }), 72, std::int16_t{ 64 }) },
      { "datatype int32", Poked(Poked(h, 70, std::int16_t{ 8 }), 72, std::int16_t{ 32 }) },
      { "an unknown datatype", Poked(h, 70, std::int16_t{ 9999 }) },
      { "vox_offset past the data", Poked(h, 108, 1.0e9f) },
      { "a negative vox_offset", Poked(h, 108, -352.0f) },
      { "sizeof_hdr 340", Poked(h, 0, std::int32_t{ 340 }) },
      { "magic n+2", Poked(h, 344, std::int32_t{ 0x00322b6e }) },
    };
  }
  else if (kind == "mha" || kind == "mhd")
  {
    header = {
      { "DimSize 100000 100000 5", WithLine(h, "DimSize", "DimSize = 100000 100000 5") },
      { "DimSize past 64 bits", WithLine(h, "DimSize", "DimSize = 2147483647 2147483647 2147483647") },
      { "a DimSize of 0", WithLine(h, "DimSize", "DimSize = 13 0 5") },
      { "a negative DimSize", WithLine(h, "DimSize", "DimSize = 13 -11 5") },
      { "NDims 9", WithLine(h, "NDims", "NDims = 9") },
      { "ElementType MET_DOUBLE", WithLine(h, "ElementType", "ElementType = MET_DOUBLE") },
      { "an unknown ElementType", WithLine(h, "ElementType", "ElementType = MET_FOO") },
      { "3 channels", Replaced(h, "ElementType", "ElementNumberOfChannels = 3\nElementType") },
      { "HeaderSize past the end", Replaced(h, "ElementType", "HeaderSize = 999999\nElementType") },
      { "NDims after DimSize", Replaced(Replaced(h, "NDims = 3\n", ""), "ElementType", "NDims = 3\nElementType") },
      { "a very long line", Replaced(h, "ElementType", "Comment = " + std::string(600, 'x') + "\nElementType") },
      { "ObjectType Mesh", WithLine(h, "ObjectType", "ObjectType = Mesh") },
    };
    if (kind == "mhd")
    {
      header.push_back({ "a missing data file", WithLine(h, "ElementDataFile", "ElementDataFile = missing.raw") });
      header.push_back({ "data in a LIST", WithLine(h, "ElementDataFile", "ElementDataFile = LIST") });
    }
    if (v.name.find("zraw") != std::string::npos || v.name.find("zlib") != std::string::npos)
    {
      header.push_back({ "compressed data declared raw", WithLine(h, "CompressedData ", "CompressedData = False") });
      header.push_back(
        { "CompressedDataSize past the end", WithLine(h, "CompressedDataSize", "CompressedDataSize = 99999999") });
    }
    else
    {
      header.push_back({ "raw data declared compressed", WithLine(h, "CompressedData", "CompressedData = True") });
    }
  }
  else if (kind == "vtk")
  {
    header = {
      { "DIMENSIONS 100000 100000 5", WithLine(h, "DIMENSIONS", "DIMENSIONS 100000 100000 5") },
      { "DIMENSIONS past 64 bits", WithLine(h, "DIMENSIONS", "DIMENSIONS 2147483647 2147483647 2147483647") },
      { "DIMENSIONS with 0", WithLine(h, "DIMENSIONS", "DIMENSIONS 13 0 5") },
      { "negative DIMENSIONS", WithLine(h, "DIMENSIONS", "DIMENSIONS 13 -11 5") },
      { "DIMENSIONS with two values", WithLine(h, "DIMENSIONS", "DIMENSIONS 13 11") },
      { "an unknown scalar type", WithLine(h, "SCALARS", "SCALARS scalars bit 1") },
      { "3 components", WithLine(h, "SCALARS", "SCALARS scalars unsigned_char 3") },
      { "a 300-character type", WithLine(h, "SCALARS", "SCALARS scalars " + std::string(300, 'u') + " 1") },
      { "POLYDATA", WithLine(h, "DATASET", "DATASET POLYDATA") },
      { "POINT_DATA mismatch", WithLine(h, "POINT_DATA", "POINT_DATA 7") },
    };
  }
  if (v.name == "vtk-binary")
  {
    // ASCII data holds numbers, not bytes: a wider type needs no more of them.
    header.push_back({ "SCALARS double (8x the data)", WithLine(h, "SCALARS", "SCALARS scalars double 1") });
  }
  else if (kind == "tif")
  {
    const size_t firstDirectory = ReadLittle32(h, 4);
    header = {
      { "ImageWidth 100000", Poked(h, TiffValueOffset(h, 256), std::uint32_t{ 100000 }) },
      { "ImageLength 100000", Poked(h, TiffValueOffset(h, 257), std::uint32_t{ 100000 }) },
      { "ImageWidth 0", Poked(h, TiffValueOffset(h, 256), std::uint32_t{ 0 }) },
      { "BitsPerSample 64", Poked(h, TiffValueOffset(h, 258), std::uint16_t{ 64 }) },
      { "BitsPerSample 3", Poked(h, TiffValueOffset(h, 258), std::uint16_t{ 3 }) },
      { "SamplesPerPixel 3", Poked(h, TiffValueOffset(h, 277), std::uint16_t{ 3 }) },
      { "Compression JPEG", Poked(h, TiffValueOffset(h, 259), std::uint16_t{ 7 }) },
      { "StripByteCounts past the end",
        Poked(h,
              ReadLittle32(h, TiffValueOffset(h, 279)) > 0 && h.size() > 64 ? TiffValueOffset(h, 279) : 0,
              std::uint32_t{ 0x7fffffff }) },
      { "the first directory past the end", Poked(h, 4, std::uint32_t{ 0x7ffffff0 }) },
      { "a directory pointing to itself",
        [&] {
          std::uint16_t entries = 0;
          std::memcpy(&entries, h.data() + firstDirectory, 2);
          return Poked(h, firstDirectory + 2 + 12 * entries, static_cast<std::uint32_t>(firstDirectory));
        }() },
      { "no byte order mark", Poked(h, 0, std::uint16_t{ 0x5858 }) },
    };
  }
  else if (kind == "png")
  {
    header = {
      { "width 100000 (CRC fixed)", PngWithChunkData(h, "IHDR", 0, BigEndian32(100000)) },
      { "width 100000 (CRC not fixed)", Poked(h, PngChunk(h, "IHDR") + 8, __builtin_bswap32(std::uint32_t{ 100000 })) },
      { "height 0", PngWithChunkData(h, "IHDR", 4, BigEndian32(0)) },
      { "bit depth 3", PngWithChunkData(h, "IHDR", 8, std::string(1, '\3')) },
      { "16-bit pixels over 8-bit data", PngWithChunkData(h, "IHDR", 8, std::string(1, '\20')) },
      { "a palette image without its PLTE chunk", PngWithChunkData(h, "IHDR", 9, std::string(1, '\3')) },
      { "RGB over gray data", PngWithChunkData(h, "IHDR", 9, std::string(1, '\2')) },
      { "a flipped IDAT byte",
        [&] {
          std::string b = h;
          b[PngChunk(h, "IDAT") + 12] ^= 0x55;
          return b;
        }() },
      { "no IEND", h.substr(0, PngChunk(h, "IEND")) },
      { "an IDAT length of 2^31 - 1", Poked(h, PngChunk(h, "IDAT"), __builtin_bswap32(std::uint32_t{ 0x7fffffff })) },
      { "an unknown critical chunk",
        [&] {
          std::string         b = h;
          const size_t        at = PngChunk(h, "IDAT");
          std::string         chunk = BigEndian32(0) + "ZZZZ";
          const std::uint32_t crc = static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef *>("ZZZZ"), 4));
          return b.insert(at, chunk + BigEndian32(crc));
        }() },
    };
  }
  std::vector<BadInput> bad;
  for (const auto & mutation : header)
  {
    BadInput input{ v.name + ": " + mutation.first, v.files };
    input.files[0].bytes = gzipped ? Gzip(mutation.second) : mutation.second;
    bad.push_back(input);
  }
  // A data file damaged in its middle (compressed: the stream's checks catch it).
  if (v.files.size() == 2 && (v.name.find("gz") != std::string::npos || v.name.find("zraw") != std::string::npos))
  {
    BadInput input{ v.name + ": a flipped byte in the compressed data", v.files };
    input.files[1].bytes[input.files[1].bytes.size() / 2] ^= 0x5a;
    bad.push_back(input);
  }
  return bad;
}

// ---- running them ------------------------------------------------------------------

void
WriteFiles(const std::string & dir, const std::vector<FileBytes> & files)
{
  FreshDirectory(dir);
  for (const auto & file : files)
  {
    WriteText(dir + "/" + file.name, file.bytes);
  }
}

std::vector<std::string>
OutputArguments()
{
  return { "--labels",      "out-labels.nrrd",       "--csv",          "out.csv",   "--saveInput",
           "out-input.mha", "--returnparameterfile", "out-return.txt", "--backend", "cpu" };
}

int
Check(const std::string & program, const std::string & dir, unsigned seed)
{
  std::cout << "seed " << seed << " (rerun with: CorruptInputCheck PROGRAM WORKDIR " << seed << ")\n";
  std::mt19937 random(seed);
  const auto   variants = MakeVariants(program, dir);

  // Each valid file must be read, with the labels ITK's ConnectedComponentImageFilter gives.
  for (const auto & variant : variants)
  {
    const std::string caseDir = dir + "/valid-" + variant.name;
    WriteFiles(caseDir, variant.files);
    RunOptions options;
    options.argv = {
      program, variant.files[0].name, "--labels", "labels.nrrd", "--csv", "table.csv", "--backend", "cpu"
    };
    options.workDir = caseDir;
    const auto result = Run(options);
    Require(result.exitCode == 0,
            variant.name + ": the valid file was refused: " + result.err + " (" + result.command + ")");
    const size_t components = CheckOutputsAnyDimension(
      caseDir + "/" + variant.files[0].name, caseDir + "/labels.nrrd", caseDir + "/table.csv", Expectation{});
    std::cout << "valid " << variant.name << ": " << components << " components, as ITK finds\n";
  }

  std::vector<BadInput> corpus;
  for (const auto & variant : variants)
  {
    for (auto & input : Truncations(variant, random))
      corpus.push_back(std::move(input));
    try
    {
      for (auto & input : FieldMutations(variant))
        corpus.push_back(std::move(input));
    }
    catch (const Failure & failure)
    {
      throw Failure(variant.name + ": " + failure.what());
    }
  }

  // Four at a time, each in a folder of its own holding only its input.
  const size_t             parallel = 4;
  std::vector<std::string> failures;
  for (size_t first = 0; first < corpus.size(); first += parallel)
  {
    std::vector<std::pair<size_t, Child>> running;
    for (size_t i = first; i < std::min(first + parallel, corpus.size()); ++i)
    {
      const std::string caseDir = dir + "/bad-" + std::to_string(i);
      WriteFiles(caseDir, corpus[i].files);
      RunOptions options;
      options.argv = { program, corpus[i].files[0].name };
      const auto outputs = OutputArguments();
      options.argv.insert(options.argv.end(), outputs.begin(), outputs.end());
      options.workDir = caseDir;
      options.timeoutSeconds = 60;
      running.emplace_back(i, Spawn(options));
    }
    for (auto & entry : running)
    {
      const BadInput &  input = corpus[entry.first];
      const std::string caseDir = dir + "/bad-" + std::to_string(entry.first);
      const RunResult   result = Wait(entry.second);
      try
      {
        RequireCleanFailure(result, input.what);
        std::vector<std::string> expected;
        for (const auto & file : input.files)
          expected.push_back(file.name);
        std::sort(expected.begin(), expected.end());
        const auto found = ListDirectory(caseDir);
        Require(found == expected,
                input.what + ": the folder holds " + std::to_string(found.size()) +
                  " files after the run, not only the input's " + std::to_string(expected.size()));
        RemoveTree(caseDir);
      }
      catch (const Failure & failure)
      {
        failures.push_back(failure.what());
      }
      std::cout << (failures.empty() || failures.back().find(input.what) != 0 ? "refused " : "FAILED  ") << input.what
                << ": " << OneLineForLog(result.err) << "\n";
    }
  }
  std::cout << corpus.size() << " damaged inputs, " << failures.size() << " not refused cleanly (seed " << seed
            << ")\n";
  for (const auto & failure : failures)
  {
    std::cerr << "FAIL " << failure << "\n";
  }
  Require(corpus.size() >= 300, "the corpus has fewer than 300 damaged inputs");
  return failures.empty() ? 0 : 1;
}

} // namespace

int
main(int argc, char * argv[])
{
  if (argc < 3 || argc > 4)
  {
    std::cerr << "Usage: " << argv[0] << " PROGRAM WORKDIR [SEED]\n";
    return 2;
  }
  const std::string dir = argv[2];
  const unsigned    seed = argc == 4 ? static_cast<unsigned>(std::stoul(argv[3])) : 8u;
  try
  {
    FreshDirectory(dir);
    return Check(argv[1], dir, seed);
  }
  catch (const std::exception & error)
  {
    std::cerr << "FAILED (seed " << seed << ", files kept in " << dir << "): " << error.what() << "\n";
    return 1;
  }
}
