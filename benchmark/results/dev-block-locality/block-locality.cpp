// How much of a g = 1 protocol image a block-local table could finish
// inside its blocks: for row blocks of R full rows (planes) or slabs of S
// full slices (volumes), the share of components, of runs and of pixels
// that lie in one block. A design that folds the table into the labeling
// stores those components whole and merges only the others (docs/results.md,
// issue 13). CPU only: union-find over the runs, the protocol's images
// (cca/RandomImages.h). Build: g++ -O2 -std=c++17 -I include block-locality.cpp
#include "cca/RandomImages.h"

#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

namespace
{

struct Run
{
  std::int32_t x0, x1; // [x0, x1)
  std::int64_t row;    // y + height * z
};

std::int64_t
Find(std::vector<std::int64_t> & parent, std::int64_t a)
{
  while (parent[a] != a)
  {
    parent[a] = parent[parent[a]];
    a = parent[a];
  }
  return a;
}

void
Join(std::vector<std::int64_t> & parent, std::int64_t a, std::int64_t b)
{
  a = Find(parent, a);
  b = Find(parent, b);
  if (a != b)
    parent[a < b ? b : a] = a < b ? a : b;
}

/** Joins the runs of row r with those of row q (q before r) that touch. */
void
JoinRows(const std::vector<Run> &          runs,
         const std::vector<std::int64_t> & first,
         std::int64_t                      q,
         std::int64_t                      r,
         bool                              diagonal,
         std::vector<std::int64_t> &       parent)
{
  std::int64_t i = first[q], j = first[r];
  const int    reach = diagonal ? 1 : 0;
  while (i < first[q + 1] && j < first[r + 1])
  {
    if (runs[i].x0 < runs[j].x1 + reach && runs[j].x0 < runs[i].x1 + reach)
      Join(parent, i, j);
    if (runs[i].x1 < runs[j].x1)
      ++i;
    else
      ++j;
  }
}

/** A block: slices (volumes) x rows x columns. */
struct Block
{
  const char * name;
  std::int64_t slices, rows, columns;
};

void
Measure(int dimension, std::int64_t n, double density, bool full, const std::vector<Block> & blocks)
{
  const std::int64_t nz = dimension == 3 ? n : 1;
  const auto image = cca::RandomBlockImage(n, n, nz, density, 1, 1000 + static_cast<std::uint32_t>(density * 10 + 0.5));
  std::vector<Run>          runs;
  std::vector<std::int64_t> first(static_cast<std::size_t>(n * nz) + 1, 0);
  for (std::int64_t row = 0; row < n * nz; ++row)
  {
    first[row] = static_cast<std::int64_t>(runs.size());
    const std::uint8_t * p = image.data() + row * n;
    for (std::int32_t x = 0; x < n;)
    {
      if (!p[x])
      {
        ++x;
        continue;
      }
      std::int32_t e = x;
      while (e < n && p[e])
        ++e;
      runs.push_back(Run{ x, e, row });
      x = e;
    }
  }
  first[n * nz] = static_cast<std::int64_t>(runs.size());
  std::vector<std::int64_t> parent(runs.size());
  std::iota(parent.begin(), parent.end(), 0);
  for (std::int64_t z = 0; z < nz; ++z)
    for (std::int64_t y = 0; y < n; ++y)
    {
      const std::int64_t r = y + n * z;
      if (y > 0)
        JoinRows(runs, first, r - 1, r, full, parent);
      if (z > 0)
      {
        JoinRows(runs, first, r - n, r, full, parent);
        if (full)
        {
          if (y > 0)
            JoinRows(runs, first, r - n - 1, r, true, parent);
          if (y + 1 < n)
            JoinRows(runs, first, r - n + 1, r, true, parent);
        }
      }
    }
  // Per root: its rows' and columns' extents (y in planes; z and y in
  // volumes), runs and pixels.
  const std::int64_t        count = static_cast<std::int64_t>(runs.size());
  std::vector<std::int64_t> zlo(runs.size(), -1), zhi(runs.size(), -1), ylo(runs.size(), -1), yhi(runs.size(), -1);
  std::vector<std::int64_t> xlo(runs.size(), -1), xhi(runs.size(), -1), nruns(runs.size(), 0);
  std::int64_t              components = 0, largest = 0;
  for (std::int64_t i = 0; i < count; ++i)
  {
    const std::int64_t root = Find(parent, i);
    const std::int64_t y = runs[i].row % n, z = runs[i].row / n;
    if (nruns[root] == 0)
    {
      zlo[root] = zhi[root] = z;
      ylo[root] = yhi[root] = y;
      xlo[root] = runs[i].x0;
      xhi[root] = runs[i].x1 - 1;
      ++components;
    }
    zlo[root] = std::min(zlo[root], z);
    zhi[root] = std::max(zhi[root], z);
    ylo[root] = std::min(ylo[root], y);
    yhi[root] = std::max(yhi[root], y);
    xlo[root] = std::min<std::int64_t>(xlo[root], runs[i].x0);
    xhi[root] = std::max<std::int64_t>(xhi[root], runs[i].x1 - 1);
    largest = std::max(largest, ++nruns[root]);
  }
  std::printf("%dD %s d=%.1f: %lld runs, %lld components, the largest %.1f %% of the runs;",
              dimension,
              full ? "full" : "face",
              density,
              static_cast<long long>(count),
              static_cast<long long>(components),
              100.0 * largest / std::max<std::int64_t>(count, 1));
  for (const Block & b : blocks)
  {
    std::int64_t c = 0, r = 0;
    for (std::int64_t i = 0; i < count; ++i)
    {
      if (nruns[i] == 0)
        continue;
      const bool inRows = dimension == 3 ? zlo[i] / b.slices == zhi[i] / b.slices && ylo[i] / b.rows == yhi[i] / b.rows
                                         : ylo[i] / b.rows == yhi[i] / b.rows;
      if (inRows && xlo[i] / b.columns == xhi[i] / b.columns)
      {
        ++c;
        r += nruns[i];
      }
    }
    std::printf(" [%s] %.1f/%.1f/%.1f",
                b.name,
                100.0 * c / std::max<std::int64_t>(components, 1),
                100.0 * r / std::max<std::int64_t>(count, 1),
                100.0 * r / std::max<std::int64_t>(count - largest, 1));
  }
  std::printf("\n");
  std::fflush(stdout);
}

} // namespace

int
main()
{
  std::printf("per block (slices x rows x columns): %% of the components, of the runs, and of the runs outside the "
              "largest component, that lie in one block\n");
  const std::vector<Block> planes = { { "16x8192", 1, 16, 8192 }, { "32x8192", 1, 32, 8192 },
                                      { "16x1024", 1, 16, 1024 }, { "32x1024", 1, 32, 1024 },
                                      { "32x512", 1, 32, 512 },   { "64x512", 1, 64, 512 } };
  for (const bool full : { false, true })
    for (int k = 1; k <= 9; ++k)
      Measure(2, 8192, 0.1 * k, full, planes);
  const std::vector<Block> volumes = { { "4x512x512", 4, 512, 512 },
                                       { "8x512x512", 8, 512, 512 },
                                       { "4x64x512", 4, 64, 512 },
                                       { "8x32x512", 8, 32, 512 },
                                       { "4x32x128", 4, 32, 128 } };
  for (int k = 1; k <= 9; ++k)
    Measure(3, 512, 0.1 * k, false, volumes);
  return 0;
}
