// What the emulation tests share: the CUDA backend's host sequence
// (cuda/HostSequence.cuh) compiled for the emulated device, an emulated
// backend that keeps its buffers across runs as an engine does, the view of
// a dense uint8 test image and the command line (CasesAndSeed.h). Include it instead of the
// .cuh headers.
#ifndef cca_emulation_EmulatedBackend_h
#define cca_emulation_EmulatedBackend_h

#include "CasesAndSeed.h"
#include "EmulatedDevice.h"

// The kernels live in their own namespace here: the engine library linked
// for the CPU reference holds the real ones under the same names.
#define cuda cudaemulated
#include "HostSequence.cuh"
#undef cuda

#include "cca/Types.h"

#include <cstdint>
#include <vector>

namespace emulation
{

using Sequence = cca::cudaemulated::HostSequence<Device>;

/** One device and host sequence, kept across runs. The runs are compiled
 *  once, in EmulatedBackend.cpp (the library ccaEmulatedHostSequence), not
 *  in every test that emulates them: the sequence with every strategy,
 *  compaction and kernel was most of the tests' build time. */
struct Backend
{
  Device   device;
  Sequence sequence;

  /** The strategy of options.algorithm, as the CUDA backend runs it. */
  void
  Run(const cca::ImageView & image, const cca::Options & options, cca::Result & result);

  /** DLP (Cabaret 2017) without the optional regularization of its tile step,
   *  a strategy outside the table, with 64-bit unit indices. */
  void
  RunUnregularizedDlp(const cca::ImageView & image, const cca::Options & options, cca::Result & result);

  /** Run's 64-bit unit indices (EmulatedBackendWide.cpp). */
  void
  RunWideIndex(const cca::ImageView & image, const cca::Options & options, cca::Result & result);
};

/** A dense uint8 image of size[0] x size[1] x size[2]. */
inline cca::ImageView
ByteImageView(const std::vector<std::uint8_t> & image, int dimension, const std::int64_t (&size)[3])
{
  cca::ImageView view;
  view.data = image.data();
  view.pixelType = cca::PixelType::UInt8;
  view.dimension = dimension;
  for (int i = 0; i < 3; ++i)
  {
    view.size[i] = size[i];
  }
  return view;
}

} // namespace emulation

#endif
