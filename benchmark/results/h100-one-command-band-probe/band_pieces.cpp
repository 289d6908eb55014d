// Pieces of a band-local table: for bands of K consecutive runs (raster
// order), how many (band, component) pieces belong to components that
// span several bands (the largest left out), per run; i.i.d. pixels, 8192^2.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>
#include <unordered_set>
namespace
{
struct Run
{
  int x0, x1, y;
};
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
main(int argc, char ** argv)
{
  const int  size = 8192;
  const bool full = argc > 1 && argv[1][0] == '8';
  const int  bands[] = { 2048, 4096, 8192, 16384 };
  for (int k = 1; k <= 9; ++k)
  {
    const double                d = 0.1 * k;
    std::mt19937_64             random(1000 + k);
    std::bernoulli_distribution pixel(d);
    std::vector<Run>            runs;
    std::vector<int>            rowStart(size + 1);
    std::vector<std::uint8_t>   row(size);
    for (int y = 0; y < size; ++y)
    {
      rowStart[y] = (int)runs.size();
      for (int x = 0; x < size; ++x)
        row[x] = pixel(random);
      for (int x = 0; x < size;)
      {
        if (!row[x])
        {
          ++x;
          continue;
        }
        const int s = x;
        while (x < size && row[x])
          ++x;
        runs.push_back({ s, x - 1, y });
      }
    }
    rowStart[size] = (int)runs.size();
    const int n = (int)runs.size();
    parent.resize(n);
    std::iota(parent.begin(), parent.end(), 0);
    const int reach = full ? 1 : 0;
    for (int y = 1; y < size; ++y)
      for (int i = rowStart[y - 1], j = rowStart[y]; i < rowStart[y] && j < rowStart[y + 1];)
      {
        const Run & a = runs[i];
        const Run & b = runs[j];
        if (a.x1 + reach >= b.x0 && b.x1 + reach >= a.x0)
          Union(i, j);
        if (a.x1 < b.x1)
          ++i;
        else
          ++j;
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
      long pieces = 0, crossingComponents = 0, crossingRuns = 0;
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
      for (int i = 0; i < n; ++i)
        crossingComponents += root[i] == i && i != largest && firstBand[i] != lastBand[i];
      std::printf(
        "  bands of %5d runs: crossing components %.4f of all, their runs %.3f of all runs, their pieces %.4f a run\n",
        K,
        double(crossingComponents) / components,
        double(crossingRuns) / n,
        double(pieces) / n);
    }
  }
}
