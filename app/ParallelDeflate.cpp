#include "ParallelDeflate.h"

#include "ImageFormats.h"
#include "OutputFiles.h"
#include "ParallelInOrder.h"

#include "itk_zlib.h"

#include <algorithm>
#include <vector>

namespace ccaapp
{
namespace
{

constexpr std::uint64_t PieceBytes = std::uint64_t{ 1 } << 20;
constexpr std::uint64_t WindowBytes = std::uint64_t{ 1 } << 15; // deflate's window: what a piece may refer back to

struct Piece
{
  std::vector<Bytef> deflated;
  uLong              check = 0; ///< the piece's CRC-32 (gzip) or Adler-32 (zlib)
};

/** Raw deflate of data[begin, end) with data[begin - 32 KiB, begin) as its
 *  dictionary; a sync flush ends it on a byte boundary, or, for the last
 *  piece, the stream's final block. False when zlib fails. */
bool
DeflatePiece(const Bytef * data, std::uint64_t begin, std::uint64_t end, bool last, int level, Piece & piece)
{
  z_stream stream{};
  if (deflateInit2(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
  {
    return false;
  }
  const std::uint64_t dictionaryBytes = std::min(begin, WindowBytes);
  bool                done = dictionaryBytes == 0 ||
              deflateSetDictionary(&stream, data + begin - dictionaryBytes, static_cast<uInt>(dictionaryBytes)) == Z_OK;
  const auto inputBytes = static_cast<uLong>(end - begin);
  // deflateBound covers the data; the sync flush's empty stored block adds 5 bytes.
  piece.deflated.resize(deflateBound(&stream, inputBytes) + 16);
  stream.next_in = const_cast<Bytef *>(data + begin);
  stream.avail_in = static_cast<uInt>(inputBytes);
  stream.next_out = piece.deflated.data();
  stream.avail_out = static_cast<uInt>(piece.deflated.size());
  if (done)
  {
    const int result = deflate(&stream, last ? Z_FINISH : Z_SYNC_FLUSH);
    // A complete sync flush leaves room in the output; Z_FINISH reports the stream's end.
    done = stream.avail_in == 0 && (last ? result == Z_STREAM_END : result == Z_OK && stream.avail_out > 0);
  }
  piece.deflated.resize(piece.deflated.size() - stream.avail_out);
  deflateEnd(&stream);
  return done;
}

/** The bytes of `value`, least significant first or last. */
std::string
Bytes32(std::uint32_t value, bool bigEndian)
{
  std::string out(4, '\0');
  for (int i = 0; i < 4; ++i)
  {
    out[bigEndian ? 3 - i : i] = static_cast<char>((value >> (8 * i)) & 0xff);
  }
  return out;
}

/** The stream's header, its pieces deflated on ITK's threads and written in
 *  order, its trailer. The stream's input is `prefix` (a piece of its own,
 *  when not empty), then `bytes` of `data`. */
std::uint64_t
WriteStream(CheckedFile &       file,
            const std::string & displayPath,
            bool                gzip,
            int                 zlibLevel,
            const std::string & prefix,
            const void *        data,
            std::uint64_t       bytes)
{
  const auto start = file.Position();
  if (gzip)
  {
    // Magic, deflate, no flags, no time stamp, the level's hint, Unix.
    const char extraFlags = zlibLevel == 1 ? 4 : zlibLevel == 9 ? 2 : 0;
    file.Write(std::string{ '\x1f', '\x8b', 8, 0, 0, 0, 0, 0, extraFlags, 3 });
  }
  else
  {
    // Deflate with a 32 KiB window, the level's hint, and the check bits
    // that make the two bytes a multiple of 31.
    const unsigned methodAndWindow = 0x78;
    const unsigned levelHint = zlibLevel < 2 ? 0 : zlibLevel < 6 ? 1 : zlibLevel == 6 ? 2 : 3;
    unsigned       flags = levelHint << 6;
    flags += 31 - (methodAndWindow * 256 + flags) % 31;
    file.Write(std::string{ static_cast<char>(methodAndWindow), static_cast<char>(flags) });
  }
  // Piece 0 is the prefix when there is one. An empty input is one piece:
  // the final block alone.
  const std::uint64_t prefixPieces = prefix.empty() ? 0 : 1;
  const std::uint64_t dataPieces = (bytes + PieceBytes - 1) / PieceBytes;
  const std::uint64_t pieces = std::max<std::uint64_t>(1, prefixPieces + dataPieces);
  struct Span
  {
    const Bytef * base;
    std::uint64_t begin, end;
  };
  auto span = [&](std::uint64_t index) {
    if (index < prefixPieces)
    {
      return Span{ reinterpret_cast<const Bytef *>(prefix.data()), 0, prefix.size() };
    }
    const std::uint64_t begin = (index - prefixPieces) * PieceBytes;
    return Span{ static_cast<const Bytef *>(data), begin, std::min(bytes, begin + PieceBytes) };
  };
  uLong check = gzip ? crc32(0, Z_NULL, 0) : adler32(0, Z_NULL, 0);
  MakeInParallelWriteInOrder<Piece>(
    pieces,
    [&](std::uint64_t index, Piece & piece) {
      const Span part = span(index);
      if (!DeflatePiece(part.base, part.begin, part.end, index + 1 == pieces, zlibLevel, piece))
      {
        FailWriting(displayPath, "zlib could not compress the data");
      }
      const auto length = static_cast<uInt>(part.end - part.begin);
      const auto input = part.base + part.begin;
      piece.check = gzip ? crc32(0, input, length) : adler32(adler32(0, Z_NULL, 0), input, length);
    },
    [&](std::uint64_t index, const Piece & piece) {
      const Span part = span(index);
      const auto length = static_cast<z_off_t>(part.end - part.begin);
      check = gzip ? crc32_combine(check, piece.check, length) : adler32_combine(check, piece.check, length);
      file.Write(piece.deflated.data(), piece.deflated.size());
    });
  // gzip: CRC-32 and the length modulo 2^32, least significant byte first;
  // zlib: Adler-32, most significant first.
  const std::uint64_t length = prefix.size() + bytes;
  file.Write(gzip ? Bytes32(static_cast<std::uint32_t>(check), false) +
                      Bytes32(static_cast<std::uint32_t>(length & 0xffffffffu), false)
                  : Bytes32(static_cast<std::uint32_t>(check), true));
  return file.Position() - start;
}

} // namespace

std::uint64_t
WriteGzip(CheckedFile &       file,
          const std::string & displayPath,
          int                 zlibLevel,
          const std::string & prefix,
          const void *        data,
          std::uint64_t       bytes)
{
  return WriteStream(file, displayPath, true, zlibLevel, prefix, data, bytes);
}

std::uint64_t
WritePixelData(CheckedFile &       file,
               const std::string & displayPath,
               DeflateStream       stream,
               int                 zlibLevel,
               const void *        data,
               std::uint64_t       bytes)
{
  if (zlibLevel > 0)
  {
    return WriteStream(file, displayPath, stream == DeflateStream::Gzip, zlibLevel, std::string(), data, bytes);
  }
  file.Write(data, bytes);
  return bytes;
}

} // namespace ccaapp
