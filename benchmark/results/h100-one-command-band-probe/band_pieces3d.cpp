// band_pieces.cpp for 512^3 volumes, 6-connectivity: bands of K
// consecutive runs (raster order), pieces of components spanning several
// bands (the largest left out), per run; i.i.d. voxels.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>
#include <unordered_set>
namespace
{
std::vector<int> parent;
int
Find(int a)
{
  while (parent[a] != a)
  {
    parent[a] = parent[parent[a]];
    a = parent[a];
  }
  return a;
}
void
Union(int a, int b)
{
  a = Find(a);
  b = Find(b);
  if (a < b)
    parent[b] = a;
  else if (b < a)
    parent[a] = b;
}
} // namespace
int
main()
{
  const int s = 512;
  const int bands[] = { 8192, 65536 };
  for (int k = 1; k <= 5; ++k)
  {
    const double                d = 0.1 * k;
    std::mt19937_64             random(1000 + k);
    std::bernoulli_distribution pixel(d);
    std::vector<int>            x0, x1;
    std::vector<int>            rowStart((size_t)s * s + 1);
    std::vector<std::uint8_t>   row(s);
    for (long r = 0; r < (long)s * s; ++r)
    {
      rowStart[r] = (int)x0.size();
      for (int x = 0; x < s; ++x)
        row[x] = pixel(random);
      for (int x = 0; x < s;)
      {
        if (!row[x])
        {
          ++x;
          continue;
        }
        const int b = x;
        while (x < s && row[x])
          ++x;
        x0.push_back(b);
        x1.push_back(x - 1);
      }
    }
    rowStart[(size_t)s * s] = (int)x0.size();
    const int n = (int)x0.size();
    parent.resize(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto join = [&](long ra, long rb) {
      for (int i = rowStart[ra], j = rowStart[rb]; i < rowStart[ra + 1] && j < rowStart[rb + 1];)
      {
        if (x1[i] >= x0[j] && x1[j] >= x0[i])
          Union(i, j);
        if (x1[i] < x1[j])
          ++i;
        else
          ++j;
      }
    };
    for (long z = 0; z < s; ++z)
      for (long y = 0; y < s; ++y)
      {
        const long r = z * s + y;
        if (y > 0)
          join(r - 1, r);
        if (z > 0)
          join(r - s, r);
      }
    std::vector<int> root(n), runsOf(n, 0);
    long             components = 0;
    for (int i = 0; i < n; ++i)
    {
      root[i] = Find(i);
      ++runsOf[root[i]];
      components += root[i] == i;
    }
    int largest = 0;
    for (int i = 0; i < n; ++i)
      largest = runsOf[i] > runsOf[largest] ? i : largest;
    std::printf("d = %.1f: %d runs, %ld components (%.3f a run), largest %.3f of the runs\n",
                d,
                n,
                components,
                double(components) / n,
                double(runsOf[largest]) / n);
    for (const int K : bands)
    {
      std::vector<int> firstBand(n, 1 << 30), lastBand(n, -1);
      for (int i = 0; i < n; ++i)
      {
        const int b = i / K;
        firstBand[root[i]] = std::min(firstBand[root[i]], b);
        lastBand[root[i]] = std::max(lastBand[root[i]], b);
      }
      long pieces = 0, crossingRuns = 0;
      for (int b0 = 0; b0 < n; b0 += K)
      {
        std::unordered_set<int> seen;
        for (int i = b0; i < std::min(n, b0 + K); ++i)
        {
          const int r = root[i];
          if (r == largest || firstBand[r] == lastBand[r])
            continue;
          ++crossingRuns;
          if (seen.insert(r).second)
            ++pieces;
        }
      }
      std::printf("  bands of %5d runs: runs in crossing components %.3f, their pieces %.4f a run\n",
                  K,
                  double(crossingRuns) / n,
                  double(pieces) / n);
    }
    std::fflush(stdout);
  }
}
