// How many of a g = 1 plane's components, and of its runs, belong to
// components that cross the border of a block of H whole rows: what a
// block-local feature table (each block's components finished in shared
// memory, the crossing ones merged by label afterwards) would leave to the
// merge. i.i.d. foreground pixels at density d (the g = 1 images'
// statistics; not bit for bit the benchmark's generator), 8192^2,
// 4-connectivity (argument 4) or 8 (argument 8). Union-find over the runs
// on one CPU thread: about 25 s for the nine densities.
//   g++ -O2 -o tile_crossing tile_crossing.cpp && ./tile_crossing 4
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

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
  const int  heights[] = { 2, 4, 6, 8, 16, 32, 64 };
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
      rowStart[y] = static_cast<int>(runs.size());
      for (int x = 0; x < size; ++x)
        row[x] = pixel(random);
      for (int x = 0; x < size;)
      {
        if (!row[x])
        {
          ++x;
          continue;
        }
        const int start = x;
        while (x < size && row[x])
          ++x;
        runs.push_back({ start, x - 1, y });
      }
    }
    rowStart[size] = static_cast<int>(runs.size());
    const int n = static_cast<int>(runs.size());
    parent.resize(n);
    std::iota(parent.begin(), parent.end(), 0);
    const int reach = full ? 1 : 0; // 8-connectivity: diagonal neighbours touch
    for (int y = 1; y < size; ++y)
    {
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
    std::printf("d = %.1f: %d runs, %ld components (%.3f a run), the largest %.3f of the runs\n",
                d,
                n,
                components,
                double(components) / n,
                double(runsOf[largest]) / n);
    for (const int h : heights)
    {
      std::vector<int> firstBlock(n, 1 << 30), lastBlock(n, -1);
      for (int i = 0; i < n; ++i)
      {
        const int b = runs[i].y / h;
        firstBlock[root[i]] = std::min(firstBlock[root[i]], b);
        lastBlock[root[i]] = std::max(lastBlock[root[i]], b);
      }
      long crossing = 0, crossingRuns = 0, crossingRunsOthers = 0;
      for (int i = 0; i < n; ++i)
      {
        const bool crosses = firstBlock[root[i]] != lastBlock[root[i]];
        crossing += crosses && root[i] == i;
        crossingRuns += crosses;
        crossingRunsOthers += crosses && root[i] != largest;
      }
      std::printf("  blocks of %2d rows: crossing components %.3f, their runs %.3f of all (%.3f without the largest)\n",
                  h,
                  double(crossing) / components,
                  double(crossingRuns) / n,
                  double(crossingRunsOthers) / n);
    }
  }
}
