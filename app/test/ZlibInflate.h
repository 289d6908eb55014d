// zlib's own inflation of a whole gzip or zlib stream, for the tests that
// read the program's and ITK's compressed files.
#ifndef CudaLabelStatisticsAppTest_ZlibInflate_h
#define CudaLabelStatisticsAppTest_ZlibInflate_h

#include "AppTestSupport.h"

#include "itk_zlib.h"

#include <string>

namespace ccaapptest
{

/** zlib's own inflation of a gzip or zlib stream, which must end exactly
 *  at the end of `deflated` (inflate checks the trailer's checksum, and
 *  gzip's length). */
inline std::string
Inflate(const std::string & deflated, bool gzip, const std::string & what)
{
  z_stream stream{};
  Require(inflateInit2(&stream, gzip ? 15 + 16 : 15) == Z_OK, "inflateInit2");
  std::string out;
  char        buffer[1 << 16];
  stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(deflated.data()));
  stream.avail_in = static_cast<uInt>(deflated.size());
  int result = Z_OK;
  while (result == Z_OK)
  {
    stream.next_out = reinterpret_cast<Bytef *>(buffer);
    stream.avail_out = sizeof(buffer);
    result = inflate(&stream, Z_NO_FLUSH);
    out.append(buffer, sizeof(buffer) - stream.avail_out);
  }
  const uInt left = stream.avail_in;
  inflateEnd(&stream);
  Require(result == Z_STREAM_END, what + ": zlib finds the stream damaged (" + std::to_string(result) + ")");
  Require(left == 0, what + ": bytes after the stream's end");
  return out;
}

} // namespace ccaapptest

#endif
