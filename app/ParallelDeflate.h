// One gzip or zlib stream deflated on every thread, as pigz does it: the
// data is cut into pieces of 1 MiB, each deflated on its own with the 32 KiB
// before it as its dictionary (so the file is hardly larger than a
// one-thread stream's) and ended on a byte boundary by a sync flush, the
// last piece finished; the pieces' checksums are combined in order. Any
// inflater reads the result as one ordinary stream. ITK's NRRD and MetaImage
// writers deflate on one thread: 2 to 3 s for a 512^3 label image.
#ifndef CudaLabelStatisticsApp_ParallelDeflate_h
#define CudaLabelStatisticsApp_ParallelDeflate_h

#include <cstdint>
#include <string>

namespace ccaapp
{

class CheckedFile;

/** Appends `prefix` then `bytes` of `data`, deflated at zlibLevel (0: stored, to 9),
 *  to `file` as one gzip stream (RFC 1952: NRRD's "encoding: gzip", a
 *  .nii.gz's header and pixels) with its header and trailer; returns the
 *  bytes appended. Errors name displayPath. */
std::uint64_t
WriteGzip(CheckedFile &       file,
          const std::string & displayPath,
          int                 zlibLevel,
          const std::string & prefix,
          const void *        data,
          std::uint64_t       bytes);

enum class DeflateStream
{
  Gzip, ///< RFC 1952, as WriteGzip
  Zlib  ///< RFC 1950 (MetaImage's CompressedData)
};

/** An image file's pixel data: `bytes` of `data` as they are (zlibLevel 0)
 *  or as one stream of that kind; returns the bytes appended. */
std::uint64_t
WritePixelData(CheckedFile &       file,
               const std::string & displayPath,
               DeflateStream       stream,
               int                 zlibLevel,
               const void *        data,
               std::uint64_t       bytes);

} // namespace ccaapp

#endif
