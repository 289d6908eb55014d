// Masks whose components' first pixel (raster order) is not in their root
// run, for the strip labeling (cuda/StripLabeling.cuh), shared by the GPU
// test and the emulation test: the root, the first run of a component's
// first strip row, has pixels only in a later row of the strip than
// another of the component's runs there, joined to it through the next
// strip row. An isolated pixel between the two in raster order takes label 2
// only if the later run's offer lands (OfferStripFirstPixelsKernel); in the
// plane two runs offer, in either order; in a volume the run may also be in
// a later tube of the root's slice of tubes. Labels only, full
// connectivity, strips forced; widths of one 16-pixel lane load.
#ifndef ccaStripFirstPixelShapes_h
#define ccaStripFirstPixelShapes_h

#include <cstdint>
#include <string>
#include <vector>

namespace ccatest
{

struct StripFirstPixelShape
{
  std::string                            name;
  int                                    dimension;
  std::int64_t                           size[3];
  std::vector<std::vector<std::int64_t>> on; ///< (x, y, z) of each foreground pixel
};

inline std::vector<StripFirstPixelShape>
StripFirstPixelShapes()
{
  return {
    // root (1, 1); runs at x = 4 and 7 with pixels in row 0; bridge in row 2; alone (12, 0)
    { "plane",
      2,
      { 16, 4, 1 },
      { { 1, 1, 0 },
        { 4, 0, 0 },
        { 4, 1, 0 },
        { 7, 0, 0 },
        { 7, 1, 0 },
        { 2, 2, 0 },
        { 3, 2, 0 },
        { 4, 2, 0 },
        { 5, 2, 0 },
        { 6, 2, 0 },
        { 12, 0, 0 } } },
    // root (1, 1, 1), the tube's last row; a run from (4, 0, 1); bridge in the next tube; alone (10, 0, 1)
    { "volume", 3, { 16, 4, 2 }, { { 1, 1, 1 }, { 4, 0, 1 }, { 4, 1, 1 }, { 2, 2, 1 }, { 3, 2, 1 }, { 10, 0, 1 } } },
    // root (1, 0, 1) in the slice's first tube; its first pixel (3, 2, 0) in the next tube; alone (10, 3, 0)
    { "volume, next tube", 3, { 16, 4, 2 }, { { 1, 0, 1 }, { 2, 1, 1 }, { 3, 2, 0 }, { 10, 3, 0 } } },
  };
}

/** The shape's mask, a byte a pixel, x fastest. */
inline std::vector<std::uint8_t>
StripFirstPixelMask(const StripFirstPixelShape & s)
{
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(s.size[0] * s.size[1] * s.size[2]), 0);
  for (const auto & p : s.on)
  {
    mask[static_cast<std::size_t>((p[2] * s.size[1] + p[1]) * s.size[0] + p[0])] = 1;
  }
  return mask;
}

} // namespace ccatest

#endif
