// An independent reference for the engine: breadth-first flood fill over the
// pixels of a binary mask, then every ComponentFeatures field by brute force,
// pixel by pixel, straight from its definition in cca/Types.h. Slow and
// simple on purpose: it shares no code and no formula with the engine.
#ifndef ccaFloodFillOracle_h
#define ccaFloodFillOracle_h

#include "ccaTestMasks.h"

#include "cca/Types.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace ccatest
{

struct OracleResult
{
  std::int64_t                        componentCount = 0;
  std::vector<std::int64_t>           labels; ///< per pixel, 0 = background, 1..N in raster order of first pixel
  std::vector<cca::ComponentFeatures> features;
  std::vector<std::vector<cca::Run>>  runs; ///< per component, raster order
};

/** The neighbour steps of a connectivity: faces only, or all of {-1,0,1}^d \ 0. */
inline std::vector<std::array<int, 3>>
NeighbourSteps(int dimension, bool full)
{
  std::vector<std::array<int, 3>> steps;
  const int                       zRange = dimension == 3 ? 1 : 0;
  for (int dz = -zRange; dz <= zRange; ++dz)
  {
    for (int dy = -1; dy <= 1; ++dy)
    {
      for (int dx = -1; dx <= 1; ++dx)
      {
        const int nonZero = (dx != 0) + (dy != 0) + (dz != 0);
        if (nonZero == 0 || (!full && nonZero > 1))
        {
          continue;
        }
        steps.push_back({ dx, dy, dz });
      }
    }
  }
  return steps;
}

/** Every ComponentFeatures field and the runs of labels (per pixel, 0 =
 *  background, 1..count), by brute force. */
inline void
FeaturesOfLabels(const Mask & mask, OracleResult & r)
{
  const std::int64_t nx = mask.size[0];
  const std::int64_t ny = mask.size[1];
  const std::int64_t nz = mask.size[2];
  auto               inside = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    return x >= 0 && y >= 0 && z >= 0 && x < nx && y < ny && z < nz;
  };
  // Features, one pixel at a time.
  r.features.resize(static_cast<std::size_t>(r.componentCount));
  for (auto & f : r.features)
  {
    f = cca::ComponentFeatures{};
    for (int i = 0; i < 3; ++i)
    {
      f.boundingBoxMin[i] = INT32_MAX;
      f.boundingBoxMax[i] = -1;
    }
  }
  const bool is3D = mask.dimension == 3;
  for (std::int64_t z = 0; z < nz; ++z)
  {
    for (std::int64_t y = 0; y < ny; ++y)
    {
      for (std::int64_t x = 0; x < nx; ++x)
      {
        const std::int64_t label = r.labels[static_cast<std::size_t>(mask.Offset(x, y, z))];
        if (label == 0)
        {
          continue;
        }
        cca::ComponentFeatures & f = r.features[static_cast<std::size_t>(label - 1)];
        const std::int64_t       c[3] = { x, y, z };
        f.pixelCount += 1;
        for (int i = 0; i < 3; ++i)
        {
          f.boundingBoxMin[i] = std::min<std::int32_t>(f.boundingBoxMin[i], static_cast<std::int32_t>(c[i]));
          f.boundingBoxMax[i] = std::max<std::int32_t>(f.boundingBoxMax[i], static_cast<std::int32_t>(c[i]));
          f.coordinateSum[i] += c[i];
        }
        const std::uint64_t ux = static_cast<std::uint64_t>(x);
        const std::uint64_t uy = static_cast<std::uint64_t>(y);
        const std::uint64_t uz = static_cast<std::uint64_t>(z);
        f.coordinateProductSum[0] += ux * ux;
        f.coordinateProductSum[1] += uy * uy;
        f.coordinateProductSum[2] += uz * uz;
        f.coordinateProductSum[3] += ux * uy;
        f.coordinateProductSum[4] += ux * uz;
        f.coordinateProductSum[5] += uy * uz;

        // Faces of the image: in 2D only the x and y faces exist (ITK's border).
        const bool face[6] = { x == 0, x == nx - 1, y == 0, y == ny - 1, is3D && z == 0, is3D && z == nz - 1 };
        bool       onBorder = false;
        for (int i = 0; i < 6; ++i)
        {
          f.pixelsOnFace[i] += face[i] ? 1 : 0;
          onBorder = onBorder || face[i];
        }
        f.pixelsOnBorder += onBorder ? 1 : 0;

        // Intercepts: every step e in {-1,0,1}^3 \ 0 whose neighbour is not in
        // this component (outside the image included) counts for class |e|.
        for (int ez = -1; ez <= 1; ++ez)
        {
          for (int ey = -1; ey <= 1; ++ey)
          {
            for (int ex = -1; ex <= 1; ++ex)
            {
              if (ex == 0 && ey == 0 && ez == 0)
              {
                continue;
              }
              const std::int64_t qx = x + ex;
              const std::int64_t qy = y + ey;
              const std::int64_t qz = z + ez;
              const bool         same =
                inside(qx, qy, qz) && r.labels[static_cast<std::size_t>(mask.Offset(qx, qy, qz))] == label;
              if (!same)
              {
                f.interceptCounts[cca::InterceptSlot(ex != 0, ey != 0, ez != 0)] += 1;
              }
            }
          }
        }
      }
    }
  }

  // Runs: maximal horizontal runs of one label, grouped by component in raster order.
  r.runs.resize(static_cast<std::size_t>(r.componentCount));
  for (std::int64_t z = 0; z < nz; ++z)
  {
    for (std::int64_t y = 0; y < ny; ++y)
    {
      std::int64_t x = 0;
      while (x < nx)
      {
        const std::int64_t label = r.labels[static_cast<std::size_t>(mask.Offset(x, y, z))];
        if (label == 0)
        {
          ++x;
          continue;
        }
        std::int64_t end = x;
        while (end < nx && r.labels[static_cast<std::size_t>(mask.Offset(end, y, z))] == label)
        {
          ++end;
        }
        r.runs[static_cast<std::size_t>(label - 1)].push_back(cca::Run{ static_cast<std::int32_t>(x),
                                                                        static_cast<std::int32_t>(y),
                                                                        static_cast<std::int32_t>(z),
                                                                        static_cast<std::int32_t>(end - x) });
        x = end;
      }
    }
  }
}

inline OracleResult
FloodFill(const Mask & mask, bool fullConnectivity)
{
  OracleResult       r;
  const std::int64_t nx = mask.size[0];
  const std::int64_t ny = mask.size[1];
  const std::int64_t nz = mask.size[2];
  r.labels.assign(static_cast<std::size_t>(mask.NumberOfPixels()), 0);
  const auto steps = NeighbourSteps(mask.dimension, fullConnectivity);
  auto       inside = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    return x >= 0 && y >= 0 && z >= 0 && x < nx && y < ny && z < nz;
  };

  // Labels: visit pixels in raster order; each unlabeled foreground pixel starts a new component.
  std::vector<std::int64_t> queue;
  for (std::int64_t start = 0; start < mask.NumberOfPixels(); ++start)
  {
    if (!mask.on[static_cast<std::size_t>(start)] || r.labels[static_cast<std::size_t>(start)] != 0)
    {
      continue;
    }
    const std::int64_t label = ++r.componentCount;
    queue.clear();
    queue.push_back(start);
    r.labels[static_cast<std::size_t>(start)] = label;
    for (std::size_t head = 0; head < queue.size(); ++head)
    {
      const std::int64_t p = queue[head];
      const std::int64_t x = p % nx;
      const std::int64_t y = (p / nx) % ny;
      const std::int64_t z = p / (nx * ny);
      for (const auto & s : steps)
      {
        const std::int64_t qx = x + s[0];
        const std::int64_t qy = y + s[1];
        const std::int64_t qz = z + s[2];
        if (!inside(qx, qy, qz))
        {
          continue;
        }
        const std::int64_t q = mask.Offset(qx, qy, qz);
        if (mask.on[static_cast<std::size_t>(q)] && r.labels[static_cast<std::size_t>(q)] == 0)
        {
          r.labels[static_cast<std::size_t>(q)] = label;
          queue.push_back(q);
        }
      }
    }
  }

  FeaturesOfLabels(mask, r);
  return r;
}

} // namespace ccatest

#endif
