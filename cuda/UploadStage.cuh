// Stage 1 of the host sequence (HostSequence.cuh): the image in device
// memory, dense and x fastest, slab by slab as it arrives; a host mask whose
// foreground is all that matters crosses the bus as bits and is unpacked on
// the device (ForegroundMask: what the later stages then see of it).
#ifndef cca_cuda_UploadStage_cuh
#define cca_cuda_UploadStage_cuh

#include "DeviceGeometry.cuh"
#include "ForegroundBits.cuh"
#include "Frame.cuh"
#include "StridedGather.cuh"

#include "DensePixels.h"
#include "ForegroundBits.h"
#include "PixelTypeDispatch.h"

#include "cca/Types.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace cca
{
namespace cuda
{

/** Stage 1: the image, dense and x fastest, in device memory. Host images
 *  are uploaded in slabs of whole rows: as foreground bits when only the
 *  foreground matters (TravelsAsForegroundBits; unpacked on the device into
 *  a 0/1 byte image, seen through ForegroundMask), else their pixels, packed
 *  dense from any strides; device images are read in place when dense, else
 *  packed on the device (StridedGather.cuh). onSlab(image, firstRow, endRow)
 *  is called for consecutive row ranges that cover the image once each, each
 *  as soon as work queued on the device sees those rows of image. */
template <class Device>
class UploadStage
{
public:
  /** Bytes of a slab (rounded down to whole rows, at least one row): large
   *  enough that a kernel per slab is cheap, small enough that the first
   *  slab's work starts early. */
  static constexpr std::size_t DefaultSlabBytes = std::size_t{ 16 } << 20;

  /** Tests: slabs of about this many bytes (0: the default). */
  void
  SetSlabBytes(std::size_t bytes)
  {
    m_SlabBytes = bytes == 0 ? DefaultSlabBytes : bytes;
  }

  /** Bytes of the last run's image copied from the host. */
  std::int64_t
  BytesToDevice() const
  {
    return m_BytesToDevice;
  }

  /** What of a host image the device needs. */
  enum class Needs
  {
    Pixels,    ///< the values (a feature image, a label image)
    Foreground ///< whether each pixel is foreground (TravelsAsForegroundBits)
  };

  template <class OnSlab>
  const void *
  Run(Device & device, const Frame & frame, Needs needs, OnSlab && onSlab)
  {
    const ImageView & image = frame.image;
    const std::size_t bytes =
      static_cast<std::size_t>(frame.pixels) * static_cast<std::size_t>(PixelTypeSize(image.pixelType));
    m_BytesToDevice = 0;
    if (image.memory == MemorySpace::CudaDevice && IsDense(image))
    {
      onSlab(image.data, std::int64_t{ 0 }, frame.geometry.rows);
      return image.data;
    }
    if (needs == Needs::Foreground && image.memory == MemorySpace::Host)
    {
      return UploadForegroundBits(device, frame, onSlab);
    }
    void * dense = m_Image.Reserve(bytes, "the image");
    if (image.memory == MemorySpace::CudaDevice)
    {
      const std::int64_t sz = image.size[2] > 1 ? image.stride[2] : 0;
      const std::int64_t sy = image.size[1] > 1 ? image.stride[1] : 0;
      // A grid-stride loop: a bounded grid for any image size.
      const unsigned blocks =
        static_cast<unsigned>(std::min<std::int64_t>(BlocksFor(frame.pixels, BlockThreads), std::int64_t{ 1 } << 16));
      DispatchPixelType(image.pixelType, [&](auto zero) {
        using T = decltype(zero);
        device.Launch("strided gather kernel",
                      blocks,
                      BlockThreads,
                      GatherStridedKernel<T>,
                      static_cast<const T *>(image.data),
                      image.size[0],
                      image.size[1],
                      frame.pixels,
                      image.stride[0],
                      sy,
                      sz,
                      static_cast<T *>(dense));
      });
      onSlab(static_cast<const void *>(dense), std::int64_t{ 0 }, frame.geometry.rows);
      return dense;
    }
    const std::size_t rowBytes = bytes / static_cast<std::size_t>(frame.geometry.rows);
    const std::size_t slabBytes = std::max<std::size_t>(1, m_SlabBytes / rowBytes) * rowBytes;
    device.Upload(dense, bytes, DensePixelProducer(image), slabBytes, [&](std::size_t begin, std::size_t end) {
      onSlab(static_cast<const void *>(dense),
             static_cast<std::int64_t>(begin / rowBytes),
             static_cast<std::int64_t>(end / rowBytes));
    });
    m_BytesToDevice = static_cast<std::int64_t>(bytes);
    return dense;
  }

private:
  /** The foreground bits of a host image, unpacked into the 0/1 image that
   *  onSlab sees: where the device streams uploads of their size and the
   *  rows' bits are one stream of half-words, read by the unpacking kernel
   *  from page-locked host memory as the copy threads pack them
   *  (StreamedUpload.h); else uploaded slab by slab (slabs of about
   *  m_SlabBytes of the unpacked image), or by regions, and unpacked as
   *  each slab arrives. */
  template <class OnSlab>
  const void *
  UploadForegroundBits(Device & device, const Frame & frame, OnSlab && onSlab)
  {
    const std::int64_t width = frame.geometry.width;
    const std::size_t  rowBytes = static_cast<std::size_t>(ForegroundBitsRowBytes(width));
    const std::size_t  bytes = rowBytes * static_cast<std::size_t>(frame.geometry.rows);
    auto * dense = Reserve<std::uint8_t>(m_Image, static_cast<std::size_t>(frame.pixels), "the foreground image");
    m_BytesToDevice = static_cast<std::int64_t>(bytes);
    if (UnpacksByHalfWords(width) && device.StreamsUploads(bytes) &&
        device.UploadStreamed(
          bytes, ForegroundBitsProducer(frame.image, frame.options), [&](const StreamedUpload & upload) {
            device.Launch("streamed foreground unpacking kernel",
                          static_cast<unsigned>(std::min<std::int64_t>(upload.pieces, StreamedUnpackBlocks)),
                          StreamedUnpackThreads,
                          UnpackStreamedHalfWordsKernel,
                          upload,
                          reinterpret_cast<uint4 *>(dense));
          }))
    {
      // The bits never sit in device memory: the kernel unpacked them as
      // it read them from the host.
      onSlab(static_cast<const void *>(dense), std::int64_t{ 0 }, frame.geometry.rows);
      return dense;
    }
    auto *            bits = Reserve<std::uint8_t>(m_Bits, bytes, "the image's foreground bits");
    const std::size_t slabRows = std::max<std::size_t>(1, m_SlabBytes / static_cast<std::size_t>(width));
    device.Upload(bits,
                  bytes,
                  ForegroundBitsProducer(frame.image, frame.options),
                  slabRows * rowBytes,
                  [&](std::size_t begin, std::size_t end) {
                    const auto firstRow = static_cast<std::int64_t>(begin / rowBytes);
                    const auto endRow = static_cast<std::int64_t>(end / rowBytes);
                    Unpack(device, bits, width, static_cast<std::int64_t>(rowBytes), firstRow, endRow, dense);
                    onSlab(static_cast<const void *>(dense), firstRow, endRow);
                  });
    return dense;
  }

  /** Unpacks rows [firstRow, endRow) of bits into dense: by half-words
   *  where the rows' bits are one stream of them (UnpacksByHalfWords), else
   *  a byte of bits a thread. */
  static void
  Unpack(Device &             device,
         const std::uint8_t * bits,
         std::int64_t         width,
         std::int64_t         rowBytes,
         std::int64_t         firstRow,
         std::int64_t         endRow,
         std::uint8_t *       dense)
  {
    constexpr std::int64_t mostBlocks = std::int64_t{ 1 } << 16;
    if (UnpacksByHalfWords(width))
    {
      const std::int64_t firstWord = firstRow * rowBytes / 2;
      const std::int64_t endWord = endRow * rowBytes / 2;
      device.Launch(
        "foreground unpacking kernel",
        static_cast<unsigned>(std::min<std::int64_t>(BlocksFor(endWord - firstWord, BlockThreads), mostBlocks)),
        BlockThreads,
        UnpackForegroundHalfWordsKernel,
        reinterpret_cast<const std::uint16_t *>(bits),
        firstWord,
        endWord,
        reinterpret_cast<uint4 *>(dense));
      return;
    }
    device.Launch("foreground unpacking kernel",
                  static_cast<unsigned>(
                    std::min<std::int64_t>(BlocksFor((endRow - firstRow) * rowBytes, BlockThreads), mostBlocks)),
                  BlockThreads,
                  UnpackForegroundBitsKernel,
                  bits,
                  width,
                  rowBytes,
                  firstRow,
                  endRow,
                  dense);
  }

  typename Device::Buffer m_Image;
  typename Device::Buffer m_Bits;
  std::size_t             m_SlabBytes = DefaultSlabBytes;
  std::int64_t            m_BytesToDevice = 0;
};

/** What the kernels see of an image uploaded as foreground bits: a dense
 *  image of 0/1 bytes whose foreground is its non-zero pixels, with the
 *  original's size and the run's other options. */
class ForegroundMask
{
public:
  ForegroundMask(const ImageView & image, const Options & options)
    : m_Image(image)
    , m_Options(options)
  {
    m_Image.data = nullptr; // the kernels read the device copy
    m_Image.pixelType = PixelType::UInt8;
    m_Image.stride[0] = m_Image.stride[1] = m_Image.stride[2] = 0;
    m_Image.memory = MemorySpace::CudaDevice;
    m_Options.foregroundRule = ForegroundRule::NotEqualTo;
    m_Options.foregroundValue = 0;
  }

  const ImageView &
  Image() const
  {
    return m_Image;
  }

  const Options &
  Rules() const
  {
    return m_Options;
  }

private:
  ImageView m_Image;
  Options   m_Options;
};

} // namespace cuda
} // namespace cca

#endif
