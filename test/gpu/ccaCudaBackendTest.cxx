// The CUDA backend against the CPU backend: every field of the result (feature
// table, runs, run offsets, label image) must be identical, on seeded random
// images of the papers' family (MT19937, density d, granularity g), all pixel
// types, both foreground rules, strided views, 2D and 3D, both connectivities,
// degenerate shapes, repeated runs, the 64-bit run-index path, and an image of
// more than 2^31 pixels. Every strategy of cca::Algorithm (cca::AllAlgorithms)
// must give the CPU's result; the atomic-update instrumentation is checked
// against hand-counted values.
// The block and strip labelings, forced, must too.
// Each cca::FeatureCompaction (Scan, TreeMerge, None) must too, on a subset
// (CompactionChecks), with Result::bytesCopiedToHost checked between them.
// Exits 77 (skipped) when no CUDA device is usable.
//
// Usage: ccaCudaBackendTest [--quick] [--no-large] [--cases N] [--seed S] [--algorithm NAME|all]
//   --quick: every algorithm briefly (for compute-sanitizer; the other
//   algorithms about as much work again as the default's quick run);
//   --cases N: random cases of the default algorithm (1200; --quick 40), the
//   others run N / 6 unless selected alone; --algorithm: one algorithm
//   (Default alone: the suite as before the strategies, plus update counting).
#include "cca/Engine.h"
#include "cca/RandomImages.h"

#include "CudaBackendTesting.h"
#include "ccaSampledRows.h"
#include "ccaStripFirstPixelShapes.h"
#include "ccaTreeCopySteps.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace
{

using cca::Algorithm;
using cca::Connectivity;
using cca::ForegroundRule;
using cca::LabelImageType;
using cca::PixelType;

/** The CUDA strategy under test (the CPU backend ignores it). */
Algorithm currentAlgorithm = Algorithm::Default;
/** The CUDA feature compaction under test (the CPU backend ignores it). */
cca::FeatureCompaction currentCompaction = cca::FeatureCompaction::Scan;

const auto & allAlgorithms = cca::AllAlgorithms;

/** A test image: a pixel buffer (possibly strided, with padding) and its view. */
struct TestImage
{
  std::vector<unsigned char> buffer;
  cca::ImageView             view;
  std::string                description;
};

/** A binary mask, x fastest. */
struct Mask
{
  std::int64_t              size[3] = { 1, 1, 1 };
  int                       dimension = 2;
  std::vector<std::uint8_t> on;
  std::string               description;

  Mask(int dim, std::int64_t nx, std::int64_t ny, std::int64_t nz, std::string text)
    : size{ nx, ny, dim == 2 ? 1 : nz }
    , dimension(dim)
    , on(static_cast<std::size_t>(nx * ny * (dim == 2 ? 1 : nz)), 0)
    , description(std::move(text))
  {}
  std::int64_t
  Pixels() const
  {
    return size[0] * size[1] * size[2];
  }
  std::uint8_t &
  At(std::int64_t x, std::int64_t y, std::int64_t z)
  {
    return on[static_cast<std::size_t>(x + size[0] * (y + size[1] * z))];
  }
};

/** The papers' random family (cca/RandomImages.h): g x g (x g in 3D) blocks
 *  share one MT19937 draw, foreground when draw < density * 2^32. */
Mask
RandomMask(int dim, std::int64_t nx, std::int64_t ny, std::int64_t nz, double density, int g, std::uint32_t seed)
{
  std::ostringstream text;
  text << "random " << nx << "x" << ny;
  if (dim == 3)
  {
    text << "x" << nz;
  }
  text << " d=" << density << " g=" << g << " maskseed=" << seed;
  Mask m(dim, nx, ny, nz, text.str());
  cca::FillRandomBlockImage(m.size[0], m.size[1], m.size[2], density, g, seed, m.on.data());
  return m;
}

Mask
Filled(int dim, std::int64_t nx, std::int64_t ny, std::int64_t nz, bool value, const std::string & text)
{
  Mask m(dim, nx, ny, nz, text);
  std::fill(m.on.begin(), m.on.end(), value ? 1 : 0);
  return m;
}

Mask
Checkerboard(int dim, std::int64_t nx, std::int64_t ny, std::int64_t nz)
{
  Mask m(dim, nx, ny, nz, "checkerboard");
  for (std::int64_t z = 0; z < m.size[2]; ++z)
    for (std::int64_t y = 0; y < m.size[1]; ++y)
      for (std::int64_t x = 0; x < m.size[0]; ++x)
        m.At(x, y, z) = ((x + y + z) % 2) == 0 ? 1 : 0;
  return m;
}

/** A square spiral of one-pixel-wide wall with one-pixel gaps: one long component. */
Mask
Spiral(std::int64_t n)
{
  Mask         m(2, n, n, 1, "spiral " + std::to_string(n));
  std::int64_t x0 = 0, y0 = 0, x1 = n - 1, y1 = n - 1;
  while (x0 <= x1 && y0 <= y1)
  {
    for (std::int64_t x = x0; x <= x1; ++x)
      m.At(x, y0, 0) = 1;
    for (std::int64_t y = y0; y <= y1; ++y)
      m.At(x1, y, 0) = 1;
    if (y1 > y0)
      for (std::int64_t x = x0; x <= x1; ++x)
        m.At(x, y1, 0) = 1;
    if (x1 > x0 + 1)
      for (std::int64_t y = y0 + 2; y <= y1; ++y)
        m.At(x0, y, 0) = 1;
    x0 += 2;
    y0 += 2;
    x1 -= 2;
    y1 -= 2;
    if (x0 <= x1 && y0 <= y1)
      m.At(x0 - 1, y0, 0) = 1; // connect to the next turn
  }
  return m;
}

/** How a mask becomes pixels: type, rule, value, layout. */
struct Encoding
{
  PixelType      type = PixelType::UInt8;
  ForegroundRule rule = ForegroundRule::NotEqualTo;
  std::int64_t   value = 0;
  int            strideX = 1; ///< 1 = contiguous rows
  int            rowPad = 0;  ///< extra pixels after each row
  int            slicePad = 0;
  bool           denseStrides = false; ///< spell the dense strides out instead of all zeros
};

template <class T>
T
Other(T v, std::uint64_t draw)
{
  T t = static_cast<T>(draw);
  if (t == v)
  {
    t = static_cast<T>(static_cast<std::uint64_t>(v) + 1);
  }
  return t;
}

template <class T>
TestImage
EncodeAs(const Mask & m, const Encoding & e, std::uint32_t seed)
{
  TestImage          image;
  const T            v = static_cast<T>(e.value);
  std::mt19937_64    rng(seed);
  const std::int64_t sx = e.strideX;
  const std::int64_t sy = m.size[0] * sx + e.rowPad;
  const std::int64_t sz = sy * m.size[1] + e.slicePad;
  const std::int64_t elements = sz * m.size[2];
  image.buffer.resize(static_cast<std::size_t>(elements) * sizeof(T));
  T * p = reinterpret_cast<T *>(image.buffer.data());
  // Padding holds foreground values: a backend that reads it would see extra runs.
  const bool equal = e.rule == ForegroundRule::EqualTo;
  for (std::int64_t i = 0; i < elements; ++i)
  {
    p[i] = equal ? v : Other(v, rng());
  }
  const std::uint64_t pattern = rng();
  for (std::int64_t z = 0; z < m.size[2]; ++z)
  {
    for (std::int64_t y = 0; y < m.size[1]; ++y)
    {
      for (std::int64_t x = 0; x < m.size[0]; ++x)
      {
        const bool on = m.on[static_cast<std::size_t>(x + m.size[0] * (y + m.size[1] * z))] != 0;
        T          value;
        if (on == equal)
        {
          value = v;
        }
        else
        {
          // Mostly one other value (long runs of equal pixels), sometimes random ones.
          value = (x % 7 == 3) ? Other(v, rng()) : Other(v, pattern);
        }
        p[x * sx + y * sy + z * sz] = value;
      }
    }
  }
  image.view.data = image.buffer.data();
  image.view.pixelType = e.type;
  image.view.dimension = m.dimension;
  for (int i = 0; i < 3; ++i)
  {
    image.view.size[i] = m.size[i];
  }
  const bool dense = sx == 1 && e.rowPad == 0 && e.slicePad == 0;
  if (!dense || e.denseStrides)
  {
    image.view.stride[0] = sx;
    image.view.stride[1] = sy;
    image.view.stride[2] = sz;
  }
  std::ostringstream text;
  text << m.description << " " << cca::PixelTypeName(e.type) << (equal ? " ==" : " !=") << e.value;
  if (!dense || e.denseStrides)
  {
    text << " strides " << sx << "," << sy << "," << sz;
  }
  image.description = text.str();
  return image;
}

TestImage
Encode(const Mask & m, const Encoding & e, std::uint32_t seed)
{
  switch (e.type)
  {
    case PixelType::UInt8:
      return EncodeAs<std::uint8_t>(m, e, seed);
    case PixelType::Int8:
      return EncodeAs<std::int8_t>(m, e, seed);
    case PixelType::UInt16:
      return EncodeAs<std::uint16_t>(m, e, seed);
    case PixelType::Int16:
      return EncodeAs<std::int16_t>(m, e, seed);
    case PixelType::UInt32:
      return EncodeAs<std::uint32_t>(m, e, seed);
    case PixelType::Int32:
      return EncodeAs<std::int32_t>(m, e, seed);
    case PixelType::UInt64:
      return EncodeAs<std::uint64_t>(m, e, seed);
    case PixelType::Int64:
      return EncodeAs<std::int64_t>(m, e, seed);
    case PixelType::Float32: // feature images only: nothing to label
    case PixelType::Float64:
      break;
  }
  return {};
}

/** The plain uint8 encoding (foreground = pixel != 0). */
TestImage
Plain(const Mask & m)
{
  return Encode(m, Encoding{}, 1);
}

// ---------------------------------------------------------------------------
// Comparison

struct Outcome
{
  cca::Result                result;
  std::vector<unsigned char> labels;
};

Outcome
RunBackend(cca::Engine & engine, const TestImage & image, cca::Options options, cca::Backend backend)
{
  Outcome out;
  options.backend = backend;
  options.algorithm = currentAlgorithm;
  options.featureCompaction = currentCompaction;
  if (options.labelImageType != LabelImageType::None)
  {
    const std::size_t bytes = options.labelImageType == LabelImageType::UInt64 ? 8 : 4;
    out.labels.assign(static_cast<std::size_t>(image.view.NumberOfPixels()) * bytes, 0xAB); // poisoned
    options.labelImage = out.labels.data();
  }
  out.result = engine.Run(image.view, options);
  return out;
}

const char * const featureNames[] = { "pixelCount",           "boundingBoxMin", "boundingBoxMax", "coordinateSum",
                                      "coordinateProductSum", "pixelsOnBorder", "pixelsOnFace",   "interceptCounts" };

/** First difference between two feature records, or an empty string. */
std::string
DiffFeatures(const cca::ComponentFeatures & a, const cca::ComponentFeatures & b)
{
  std::ostringstream s;
  auto               field = [&](const char * name, int i, long long x, long long y) {
    if (x != y && s.tellp() == 0)
    {
      s << name << "[" << i << "] cpu=" << x << " cuda=" << y;
    }
  };
  field(featureNames[0], 0, a.pixelCount, b.pixelCount);
  for (int i = 0; i < 3; ++i)
  {
    field(featureNames[1], i, a.boundingBoxMin[i], b.boundingBoxMin[i]);
    field(featureNames[2], i, a.boundingBoxMax[i], b.boundingBoxMax[i]);
    field(featureNames[3], i, a.coordinateSum[i], b.coordinateSum[i]);
  }
  for (int i = 0; i < 6; ++i)
  {
    field(featureNames[4],
          i,
          static_cast<long long>(a.coordinateProductSum[i]),
          static_cast<long long>(b.coordinateProductSum[i]));
    field(featureNames[6], i, a.pixelsOnFace[i], b.pixelsOnFace[i]);
  }
  field(featureNames[5], 0, a.pixelsOnBorder, b.pixelsOnBorder);
  for (int i = 0; i < cca::NumberOfInterceptSlots; ++i)
  {
    field(featureNames[7], i, a.interceptCounts[i], b.interceptCounts[i]);
  }
  return s.str();
}

/** Empty when equal, else a description of the first difference. */
std::string
Compare(const Outcome & cpu, const Outcome & gpu, const cca::Options & options)
{
  std::ostringstream  s;
  const cca::Result & a = cpu.result;
  const cca::Result & b = gpu.result;
  if (b.backendUsed != cca::Backend::Cuda && options.backend == cca::Backend::Cuda)
  {
    return "the CUDA run did not use the CUDA backend";
  }
  if (a.componentCount != b.componentCount)
  {
    s << "componentCount cpu=" << a.componentCount << " cuda=" << b.componentCount;
    return s.str();
  }
  if (a.features.size() != b.features.size())
  {
    s << "features.size cpu=" << a.features.size() << " cuda=" << b.features.size();
    return s.str();
  }
  for (std::size_t i = 0; i < a.features.size(); ++i)
  {
    const std::string d = DiffFeatures(a.features[i], b.features[i]);
    if (!d.empty())
    {
      s << "label " << i + 1 << ": " << d;
      return s.str();
    }
  }
  if (a.runOffsets != b.runOffsets)
  {
    s << "runOffsets differ (sizes " << a.runOffsets.size() << ", " << b.runOffsets.size() << ")";
    return s.str();
  }
  if (a.runs.size() != b.runs.size())
  {
    s << "runs.size cpu=" << a.runs.size() << " cuda=" << b.runs.size();
    return s.str();
  }
  for (std::size_t i = 0; i < a.runs.size(); ++i)
  {
    const cca::Run & p = a.runs[i];
    const cca::Run & q = b.runs[i];
    if (p.x != q.x || p.y != q.y || p.z != q.z || p.length != q.length)
    {
      s << "run " << i << " cpu=(" << p.x << "," << p.y << "," << p.z << "," << p.length << ") cuda=(" << q.x << ","
        << q.y << "," << q.z << "," << q.length << ")";
      return s.str();
    }
  }
  if (cpu.labels.size() != gpu.labels.size() || std::memcmp(cpu.labels.data(), gpu.labels.data(), cpu.labels.size()))
  {
    const std::size_t bytes = options.labelImageType == LabelImageType::UInt64 ? 8 : 4;
    for (std::size_t i = 0; i < cpu.labels.size(); i += bytes)
    {
      if (std::memcmp(&cpu.labels[i], &gpu.labels[i], bytes) != 0)
      {
        std::uint64_t x = 0, y = 0;
        std::memcpy(&x, &cpu.labels[i], bytes);
        std::memcpy(&y, &gpu.labels[i], bytes);
        s << "label image differs at pixel " << i / bytes << ": cpu=" << x << " cuda=" << y;
        return s.str();
      }
    }
    return "label image sizes differ";
  }
  return {};
}

std::string
OptionsText(const cca::Options & o)
{
  std::ostringstream s;
  s << (o.connectivity == Connectivity::Full ? "full" : "face") << " runs=" << (o.computeRuns ? 1 : 0)
    << " features=" << (o.computeFeatures ? 1 : 0) << " labels="
    << (o.labelImageType == LabelImageType::None ? "none"
                                                 : (o.labelImageType == LabelImageType::UInt32 ? "u32" : "u64"));
  return s.str();
}

struct Tally
{
  int passed = 0;
  int failed = 0;
};

/** Runs CPU and CUDA on the image and reports a difference with the seed. */
bool
Check(cca::Engine & engine, const TestImage & image, cca::Options options, const std::string & caseName, Tally & tally)
{
  std::string problem;
  try
  {
    const Outcome cpu = RunBackend(engine, image, options, cca::Backend::Cpu);
    options.backend = cca::Backend::Cuda;
    const Outcome gpu = RunBackend(engine, image, options, cca::Backend::Cuda);
    problem = Compare(cpu, gpu, options);
  }
  catch (const std::exception & e)
  {
    problem = std::string("exception: ") + e.what();
  }
  if (problem.empty())
  {
    ++tally.passed;
    return true;
  }
  ++tally.failed;
  std::cout << "FAIL " << cca::AlgorithmName(currentAlgorithm) << " "
            << (currentCompaction != cca::FeatureCompaction::Scan
                  ? std::string(cca::FeatureCompactionName(currentCompaction)) + " "
                  : std::string())
            << caseName << " [" << image.description << ", " << OptionsText(options) << "]: " << problem << std::endl;
  return false;
}

// ---------------------------------------------------------------------------
// Suites

const PixelType allTypes[] = { PixelType::UInt8,  PixelType::Int8,  PixelType::UInt16, PixelType::Int16,
                               PixelType::UInt32, PixelType::Int32, PixelType::UInt64, PixelType::Int64 };

/** The union-find's levels (cuda/UnionFind.cuh's ForEachLinkPass) joining
 *  groups of 2, 3, 8, 16 and 64 blocks of rows and slices, or the default
 *  (512 in volumes, 8 in planes of long runs), on images tall and deep enough for
 *  several levels of the default 128-row blocks: planes of up to 3,000
 *  rows, volumes of up to 600 rows and 40 slices, dense and sparse masks of
 *  long and short runs, both connectivities, labels only or with the
 *  table; two thirds of the cases with blocks of 8 or 32 rows forced
 *  (SetLinkBlockRows), which planes of short runs otherwise never take;
 *  the labels and features must be the CPU's. */
void
LinkFanInChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  const std::int64_t fanIns[] = { 0, 2, 3, 8, 16, 64 };
  const double       densities[] = { 0.3, 0.5, 0.6, 0.9, 1.0 };
  const int          granularities[] = { 1, 4, 16 };
  const int          cases = quick ? 12 : 90;
  for (int i = 0; i < cases; ++i)
  {
    const std::uint32_t caseSeed = 1200000 + seed + static_cast<std::uint32_t>(i);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const std::int64_t  fanIn = fanIns[i % 6];
    const int           dim = pick(2) == 0 ? 3 : 2;
    const std::int64_t  nx = 1 + pick(dim == 2 ? 90 : 40);
    const std::int64_t  ny = dim == 2 ? 130 + pick(2900) : 1 + pick(600);
    const std::int64_t  nz = dim == 3 ? 2 + pick(39) : 1;
    const Mask          mask = RandomMask(dim, nx, ny, nz, densities[pick(5)], granularities[pick(3)], caseSeed);
    cca::Options        options;
    options.connectivity = pick(2) == 0 ? Connectivity::Face : Connectivity::Full;
    options.computeRuns = pick(2) == 0;
    options.computeFeatures = pick(3) != 0;
    options.labelImageType = pick(2) == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
    const std::int64_t blockRowChoices[] = { 0, 8, 32 };
    const std::int64_t blockRows = blockRowChoices[pick(3)];
    cca::cuda::SetLinkFanIn(fanIn);
    cca::cuda::SetLinkBlockRows(blockRows);
    Check(engine,
          Plain(mask),
          options,
          "link fan-in " + std::to_string(fanIn) + " block rows " + std::to_string(blockRows) +
            " seed=" + std::to_string(caseSeed),
          tally);
    cca::cuda::SetLinkFanIn(0);
    cca::cuda::SetLinkBlockRows(0);
  }
}

/** A volume's first union-find pass with its links in shared memory
 *  (cuda/RowBlocksInShared.cuh): where the default takes it, in every
 *  volume with the default's links or with 40 (most blocks then join
 *  their runs in global memory, the others in shared memory, in the same
 *  pass), or that pass in global memory; blocks of the default rows (as many as the links hold), of 8
 *  or of 32 rows; volumes of narrow and of 3,000-pixel rows (whose blocks
 *  of 32 rows outnumber even the default links) at densities from sparse
 *  to percolating, both connectivities, labels only or with the runs and
 *  the table, the merges (in shared and in global memory) queued a warp at
 *  a time (cuda/QueuedMerges.cuh) or each run's own; the labels and features must
 *  be the CPU's. */
void
SharedRowLinkChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  const std::int32_t capacities[] = { 0, 40, 3072, -1 };
  const std::int64_t blockRowChoices[] = { 0, 8, 32 };
  const double       densities[] = { 0.2, 0.4, 0.5, 0.6, 0.8, 1.0 };
  const int          cases = quick ? 12 : 72;
  for (int i = 0; i < cases; ++i)
  {
    const std::uint32_t caseSeed = 1800000 + seed + static_cast<std::uint32_t>(i);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const std::int32_t  capacity = capacities[i % 4];
    const std::int64_t  blockRows = blockRowChoices[(i / 4) % 3];
    const bool          queued = (i / 12) % 2 == 0;
    const bool          wide = pick(4) == 0;
    const std::int64_t  nx = wide ? 3000 + pick(200) : 20 + pick(300);
    const std::int64_t  ny = wide ? 32 + pick(40) : 10 + pick(300);
    const std::int64_t  nz = 2 + pick(wide ? 3 : 10);
    const Mask          mask = RandomMask(3, nx, ny, nz, densities[pick(6)], pick(3) == 0 ? 4 : 1, caseSeed);
    cca::Options        options;
    options.connectivity = pick(2) == 0 ? Connectivity::Face : Connectivity::Full;
    options.computeRuns = pick(2) == 0;
    options.computeFeatures = pick(3) != 0;
    options.labelImageType = pick(2) == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
    cca::cuda::SetSharedLinkCapacity(capacity);
    cca::cuda::SetLinkBlockRows(blockRows);
    cca::cuda::SetQueuedMerges(queued);
    Check(engine,
          Plain(mask),
          options,
          "shared links " + std::to_string(capacity) + " block rows " + std::to_string(blockRows) +
            (queued ? " queued merges" : " merges a run a thread") + " seed=" + std::to_string(caseSeed),
          tally);
    cca::cuda::SetSharedLinkCapacity(0);
    cca::cuda::SetLinkBlockRows(0);
    cca::cuda::SetQueuedMerges(true);
  }
}

/** The union-find joining the runs of byte masks from the rows' foreground
 *  bits (cuda/RowPairLinks.cuh) always, never or by the default choice
 *  (short runs, by density: labels only, and the table of planes, whose
 *  pairs are then counted after the labels): planes and volumes of short and long runs at
 *  densities around the thresholds, both connectivities, labels only or
 *  with the runs and the table; the runs' neighbours found through their
 *  end index or by binary searches; the labels and features must be the
 *  CPU's. */
void
RowBitLinkChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  const cca::cuda::RowBitLinksUse uses[] = { cca::cuda::RowBitLinksUse::Always,
                                             cca::cuda::RowBitLinksUse::Never,
                                             cca::cuda::RowBitLinksUse::Automatic };
  const char *                    useNames[] = { "always", "never", "by the default choice" };
  static_assert(std::size(useNames) == std::size(uses), "a name for each choice");
  const double densities[] = { 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8 };
  const int    granularities[] = { 1, 1, 2, 4 };
  const int    cases = quick ? 8 : 60;
  for (int i = 0; i < cases; ++i)
  {
    const std::uint32_t caseSeed = 1300000 + seed + static_cast<std::uint32_t>(i);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const std::size_t   choice = static_cast<std::size_t>(i) % std::size(uses);
    const auto          use = uses[choice];
    const int           dim = pick(2) == 0 ? 3 : 2;
    // Rows of whole 16-pixel lanes (the row scans' only width), of 1 to 3
    // stretches of 512 pixels, most cut inside one.
    const std::int64_t nx = 16 * (1 + pick(96));
    const std::int64_t ny = dim == 2 ? 1 + pick(400) : 1 + pick(60);
    const std::int64_t nz = dim == 3 ? 2 + pick(20) : 1;
    const Mask         mask = RandomMask(dim, nx, ny, nz, densities[pick(7)], granularities[pick(4)], caseSeed);
    cca::Options       options;
    options.connectivity = pick(2) == 0 ? Connectivity::Face : Connectivity::Full;
    const bool labelsOnly = pick(2) == 0;
    options.computeRuns = !labelsOnly && pick(2) == 0;
    options.computeFeatures = !labelsOnly;
    options.labelImageType = pick(2) == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
    // The runs' end index for the searches of neighbour rows, whatever the
    // runs a row, or binary searches of the rows' runs (cuda/RunNeighbours.cuh).
    const bool endIndex = (i / 2) % 2 == 0;
    cca::cuda::SetRowBitLinks(use);
    cca::cuda::SetRunEndIndex(endIndex ? cca::cuda::RunEndIndexUse::Always : cca::cuda::RunEndIndexUse::Never);
    Check(engine,
          Plain(mask),
          options,
          std::string("row-bit links ") + useNames[choice] + (endIndex ? ", run end index" : ", run searches") +
            " seed=" + std::to_string(caseSeed),
          tally);
    cca::cuda::SetRowBitLinks(cca::cuda::RowBitLinksUse::Automatic);
    cca::cuda::SetRunEndIndex(cca::cuda::RunEndIndexUse::Automatic);
  }
}

/** The union-find's first pass from the rows' foreground bits in blocks
 *  of rows with their links in shared memory (cuda/ByteRowBlocksInShared.cuh):
 *  by the default choice (planes of wide rows of many runs), with 3072 or
 *  40 links in every image the bits join (most blocks then join in global
 *  memory instead, in the same pass), or never; in blocks of the default
 *  rows, of 3 or of 7; planes of 2048 to 4608 pixels a row (some cut inside
 *  a stretch of 512) and narrow planes and volumes, both connectivities,
 *  labels only or with the runs and the table; each stretch's events
 *  queued across the warp (the default) or joined by their lanes; the
 *  labels and features must be the CPU's. */
void
ByteRowBlockChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  const std::int32_t capacities[] = { 0, 3072, 40, -1 };
  const std::int64_t blockRowChoices[] = { 0, 3, 7 };
  const double       densities[] = { 0.2, 0.3, 0.5, 0.6, 0.7, 0.9 };
  const int          cases = quick ? 12 : 48;
  for (int i = 0; i < cases; ++i)
  {
    const std::uint32_t caseSeed = 1900000 + seed + static_cast<std::uint32_t>(i);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const std::int32_t  capacity = capacities[i % 4];
    const std::int64_t  blockRows = blockRowChoices[(i / 4) % 3];
    const bool          queued = (i / 4) % 2 == 0;
    const bool          volume = pick(5) == 0;
    const bool          wide = !volume && pick(4) != 0;
    // Rows of whole 16-pixel lanes (the row scans' only width).
    const std::int64_t nx = 16 * (wide ? 128 + pick(161) : 1 + pick(64));
    const std::int64_t ny = volume ? 2 + pick(40) : 2 + pick(wide ? 120 : 300);
    const std::int64_t nz = volume ? 2 + pick(6) : 1;
    const Mask   mask = RandomMask(volume ? 3 : 2, nx, ny, nz, densities[pick(6)], pick(4) == 0 ? 2 : 1, caseSeed);
    cca::Options options;
    options.connectivity = pick(2) == 0 ? Connectivity::Face : Connectivity::Full;
    const bool labelsOnly = pick(2) == 0;
    options.computeRuns = !labelsOnly && pick(2) == 0;
    options.computeFeatures = !labelsOnly;
    options.labelImageType = pick(2) == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
    // The bits join every image here, so that the narrow ones and the
    // volumes reach the pass where the links are set.
    cca::cuda::SetRowBitLinks(cca::cuda::RowBitLinksUse::Always);
    cca::cuda::SetSharedLinkCapacity(capacity);
    cca::cuda::SetLinkBlockRows(blockRows);
    cca::cuda::SetQueuedMerges(queued);
    Check(engine,
          Plain(mask),
          options,
          "byte row blocks, shared links " + std::to_string(capacity) + " block rows " + std::to_string(blockRows) +
            (queued ? " queued events" : " events a lane") + " seed=" + std::to_string(caseSeed),
          tally);
    cca::cuda::SetRowBitLinks(cca::cuda::RowBitLinksUse::Automatic);
    cca::cuda::SetSharedLinkCapacity(0);
    cca::cuda::SetLinkBlockRows(0);
    cca::cuda::SetQueuedMerges(true);
  }
}

/** Feature tables whose votes take the units in component order always,
 *  never or by the default choice (cuda/ComponentOrder.cuh): with the runs,
 *  whose grouping then shares the sort, or without; with a selection,
 *  which sorts again; in component order with the components of a warp's
 *  chunk stored whole or merged. */
void
VoteOrderChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  const cca::cuda::VoteOrderUse uses[] = { cca::cuda::VoteOrderUse::Always,
                                           cca::cuda::VoteOrderUse::Never,
                                           cca::cuda::VoteOrderUse::Automatic };
  const char * useNames[] = { "votes in component order", "votes in raster order", "votes in the default order" };
  static_assert(std::size(useNames) == std::size(uses), "a name for each choice");
  const double densities[] = { 0.1, 0.3, 0.5, 0.6, 0.8 };
  const int    granularities[] = { 1, 1, 2, 4, 16 };
  const int    cases = quick ? 8 : 60;
  for (int i = 0; i < cases; ++i)
  {
    const std::uint32_t caseSeed = 1400000 + seed + static_cast<std::uint32_t>(i);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const std::size_t   choice = static_cast<std::size_t>(i) % std::size(uses);
    const auto          use = uses[choice];
    const int           dim = pick(2) == 0 ? 3 : 2;
    const std::int64_t  nx = 1 + pick(700);
    const std::int64_t  ny = dim == 2 ? 1 + pick(400) : 1 + pick(60);
    const std::int64_t  nz = dim == 3 ? 1 + pick(24) : 1;
    const Mask          mask = RandomMask(dim, nx, ny, nz, densities[pick(5)], granularities[pick(5)], caseSeed);
    cca::Options        options;
    options.connectivity = pick(2) == 0 ? Connectivity::Face : Connectivity::Full;
    options.computeRuns = pick(3) != 0;
    options.computeFeatures = true;
    options.labelImageType = pick(3) == 0 ? LabelImageType::None : LabelImageType::UInt32;
    if (pick(4) == 0)
    {
      options.selection.minimumPixels = 2;
      options.selection.orderBySize = pick(2) == 0;
    }
    // In component order, the components of a warp's chunk stored whole by
    // the votes, or every entry merged (cuda/WholeComponents.cuh).
    const bool whole = (i / 2) % 2 == 0;
    // The default algorithm's table with narrow entries widened on the
    // host, on the device (few components: the default), or wide entries
    // (src/NarrowFeatures.h); a 2D image's narrow entries planar (the
    // default) or NarrowFeatures.
    const cca::cuda::NarrowTableUse narrowUses[] = { cca::cuda::NarrowTableUse::HostWidening,
                                                     cca::cuda::NarrowTableUse::Automatic,
                                                     cca::cuda::NarrowTableUse::Never };
    const cca::cuda::NarrowTableUse narrow = narrowUses[(i / 4) % 3];
    const bool                      planar = (i / 12) % 2 == 0;
    cca::cuda::SetVoteOrder(use);
    cca::cuda::SetWholeComponents(whole ? cca::cuda::WholeComponentsUse::Always : cca::cuda::WholeComponentsUse::Never);
    cca::cuda::SetNarrowTable(narrow);
    cca::cuda::SetPlanarTable(planar ? cca::cuda::PlanarTableUse::Automatic : cca::cuda::PlanarTableUse::Never);
    Check(engine,
          Plain(mask),
          options,
          std::string(useNames[choice]) +
            (use != cca::cuda::VoteOrderUse::Never ? (whole ? ", whole components" : ", merged components") : "") +
            (narrow == cca::cuda::NarrowTableUse::HostWidening ? ", narrow table widened on the host"
             : narrow == cca::cuda::NarrowTableUse::Automatic  ? ", narrow table"
                                                               : ", wide table") +
            (narrow != cca::cuda::NarrowTableUse::Never && !planar ? " (no planar entries)" : "") +
            " seed=" + std::to_string(caseSeed),
          tally);
    cca::cuda::SetVoteOrder(cca::cuda::VoteOrderUse::Automatic);
    cca::cuda::SetWholeComponents(cca::cuda::WholeComponentsUse::Automatic);
    cca::cuda::SetNarrowTable(cca::cuda::NarrowTableUse::Automatic);
    cca::cuda::SetPlanarTable(cca::cuda::PlanarTableUse::Automatic);
  }
}

/** A case of LargestChoiceChecks: a mask, the options it runs with, and
 *  whether the votes take the units in component order even where nothing
 *  else sorts them; makeCase may set other choices for it and name them
 *  in note. */
struct LargestCase
{
  Mask         mask;
  cca::Options options;
  bool         votesInOrder = false;
  std::string  note; ///< what the description adds after the choice's name
};

/** The checks of a runtime choice about the largest component, whose
 *  three uses (always, never, the default choice) set(k) applies and
 *  names[k] names: cases random cases from seeds base + seed + i, case i
 *  made by makeCase(i, pick, caseSeed) and run with use i % 3; then,
 *  unless quick, each of large (masks above the units from which the
 *  default looks for the largest component) with the uses from
 *  firstLargeUse on. Leaves the default choice and vote order set. */
template <class Set, class MakeCase>
void
LargestChoiceChecks(cca::Engine & engine,
                    bool          quick,
                    std::uint32_t seed,
                    std::uint32_t base,
                    int           cases,
                    const char * const (&names)[3],
                    Set &&                           set,
                    MakeCase &&                      makeCase,
                    const std::vector<LargestCase> & large,
                    int                              firstLargeUse,
                    Tally &                          tally)
{
  for (int i = 0; i < cases; ++i)
  {
    const std::uint32_t caseSeed = base + seed + static_cast<std::uint32_t>(i);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const int           use = i % 3;
    const LargestCase   c = makeCase(i, pick, caseSeed);
    cca::cuda::SetVoteOrder(c.votesInOrder ? cca::cuda::VoteOrderUse::Always : cca::cuda::VoteOrderUse::Automatic);
    set(use);
    Check(engine,
          Plain(c.mask),
          c.options,
          std::string(names[use]) + (c.votesInOrder ? ", votes in component order" : "") + c.note +
            " seed=" + std::to_string(caseSeed),
          tally);
  }
  cca::cuda::SetVoteOrder(cca::cuda::VoteOrderUse::Automatic);
  cca::cuda::SetWholeComponents(cca::cuda::WholeComponentsUse::Automatic); // a case may have set it
  if (!quick)
  {
    for (const LargestCase & c : large)
    {
      for (int use = firstLargeUse; use < 3; ++use)
      {
        set(use);
        Check(engine, Plain(c.mask), c.options, std::string(names[use]) + c.note, tally);
      }
    }
  }
  set(2);
}

/** The options of a large mask for LargestChoiceChecks: the runs, the
 *  table and the label image. */
cca::Options
LargeMaskOptions(Connectivity connectivity)
{
  cca::Options options;
  options.connectivity = connectivity;
  options.computeRuns = true;
  options.computeFeatures = true;
  options.labelImageType = LabelImageType::UInt32;
  return options;
}

/** The component order with the largest component's units left out of
 *  its sort always, never or by the default choice
 *  (cuda/LargestComponent.cuh), on masks dense enough that one component
 *  holds many units, in 2D and 3D: with the runs, whose grouping then
 *  takes that order, or without (the votes sorted alone); with a
 *  selection; the largest component numbered first or after others. Not
 *  quick: two masks above the 2^20 units from which the default looks for
 *  it. */
void
LargestApartChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  const cca::cuda::LargestApartUse uses[] = { cca::cuda::LargestApartUse::Always,
                                              cca::cuda::LargestApartUse::Never,
                                              cca::cuda::LargestApartUse::Automatic };
  const char * const names[] = { "largest component apart", "every unit sorted", "largest component by default" };
  const auto         makeCase = [](int i, auto & pick, std::uint32_t caseSeed) {
    const double densities[] = { 0.3, 0.5, 0.6, 0.7, 0.8, 0.9 };
    const int    dim = pick(2) == 0 ? 3 : 2;
    const auto   nx = static_cast<std::int64_t>(1 + pick(700));
    const auto   ny = static_cast<std::int64_t>(dim == 2 ? 1 + pick(400) : 1 + pick(60));
    const auto   nz = static_cast<std::int64_t>(dim == 3 ? 1 + pick(24) : 1);
    LargestCase  c{ RandomMask(dim, nx, ny, nz, densities[pick(6)], 1 + pick(2), caseSeed), {}, false, {} };
    c.options.connectivity = pick(2) == 0 ? Connectivity::Face : Connectivity::Full;
    c.options.computeRuns = pick(4) != 0;
    c.options.computeFeatures = true;
    c.options.labelImageType = pick(3) == 0 ? LabelImageType::None : LabelImageType::UInt32;
    if (pick(5) == 0)
    {
      c.options.selection.minimumPixels = 2;
      c.options.selection.orderBySize = pick(2) == 0;
    }
    // Sorted for the votes alone too where the runs are not asked or a
    // selection sorts them again.
    c.votesInOrder = (i / 3) % 2 == 0;
    return c;
  };
  // Above LargestApartLeastUnits: the default's own choice, both ways.
  std::vector<LargestCase> large;
  for (std::uint32_t k = 0; k < (quick ? 0u : 2u); ++k)
  {
    const std::uint32_t caseSeed = 1459000 + seed + k;
    large.push_back(LargestCase{ k == 0 ? RandomMask(2, 4096, 2048, 1, 0.7, 1, caseSeed)
                                        : RandomMask(3, 256, 256, 96, 0.5, 1, caseSeed),
                                 LargeMaskOptions(k == 0 ? Connectivity::Face : Connectivity::Full),
                                 false,
                                 " seed=" + std::to_string(caseSeed) });
  }
  LargestChoiceChecks(
    engine,
    quick,
    seed,
    1450000,
    quick ? 9 : 72,
    names,
    [&](int use) { cca::cuda::SetLargestApart(uses[use]); },
    makeCase,
    large,
    1,
    tally);
}

/** The largest component's table entry as the foreground's totals less
 *  the other entries (cuda/LargestBySubtraction.cuh) always, never or by
 *  the default choice, on masks dense enough that one component holds
 *  most runs, 2D and 3D: on byte rows of whole 16-byte loads (where it
 *  applies; under face connectivity the pairs between components are
 *  counted apart) or of other widths (where it must not), both
 *  connectivities; with or without the runs, the label image, a
 *  selection, the votes in component order, the other components stored
 *  whole by the votes, merged or by the default choice (with the largest
 *  component's runs placed by the pairs' pass too); a large mask of each
 *  dimension and connectivity above the units from which the default
 *  looks for the largest component, each way. */
void
LargestSubtractedChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  const cca::cuda::LargestSubtractedUse uses[] = { cca::cuda::LargestSubtractedUse::Always,
                                                   cca::cuda::LargestSubtractedUse::Never,
                                                   cca::cuda::LargestSubtractedUse::Automatic };
  const char * const names[] = { "largest component subtracted", "every run votes", "largest subtracted by default" };
  const auto         makeCase = [](int i, auto & pick, std::uint32_t caseSeed) {
    const double densities[] = { 0.3, 0.45, 0.6, 0.7, 0.8, 0.95 };
    const int    dim = pick(2) == 0 ? 3 : 2;
    // Whole 16-pixel lanes (the totals' rows) in seven cases of eight.
    const auto  nx = static_cast<std::int64_t>(pick(8) != 0 ? 16 * (1 + pick(dim == 2 ? 48 : 12)) : 1 + pick(300));
    const auto  ny = static_cast<std::int64_t>(dim == 2 ? 1 + pick(300) : 1 + pick(50));
    const auto  nz = static_cast<std::int64_t>(dim == 3 ? 1 + pick(24) : 1);
    LargestCase c{ RandomMask(dim, nx, ny, nz, densities[pick(6)], 1 + pick(2), caseSeed), {}, false, {} };
    c.options.connectivity = pick(4) != 0 ? Connectivity::Full : Connectivity::Face;
    c.options.computeRuns = pick(4) != 0;
    c.options.computeFeatures = true;
    c.options.labelImageType = pick(3) == 0 ? LabelImageType::None : LabelImageType::UInt32;
    if (pick(6) == 0)
    {
      c.options.selection.minimumPixels = 2;
      c.options.selection.orderBySize = pick(2) == 0;
    }
    c.votesInOrder = pick(3) == 0;
    // Every pair of this choice and the subtraction's in any 9 cases.
    const cca::cuda::WholeComponentsUse wholeUses[] = { cca::cuda::WholeComponentsUse::Always,
                                                        cca::cuda::WholeComponentsUse::Never,
                                                        cca::cuda::WholeComponentsUse::Automatic };
    const char * const                  wholeNames[] = { ", components whole", ", components merged", "" };
    cca::cuda::SetWholeComponents(wholeUses[(i / 3) % 3]);
    c.note = wholeNames[(i / 3) % 3];
    return c;
  };
  // A plane and a volume above the percolation threshold of each
  // connectivity, each way.
  std::vector<LargestCase> large;
  for (std::uint32_t k = 0; k < (quick ? 0u : 4u); ++k)
  {
    const std::uint32_t caseSeed = 1479000 + seed + k;
    const bool          plane = k % 2 == 0;
    const bool          full = k < 2;
    large.push_back(
      LargestCase{ plane ? RandomMask(2, 4096, 2048, 1, full ? 0.7 : 0.75, 1, caseSeed)
                         : RandomMask(3, 256, 256, 96, full ? 0.5 : 0.55, 1, caseSeed),
                   LargeMaskOptions(full ? Connectivity::Full : Connectivity::Face),
                   false,
                   std::string(full ? ", full" : ", face") + " connectivity seed=" + std::to_string(caseSeed) });
  }
  LargestChoiceChecks(
    engine,
    quick,
    seed,
    1470000,
    quick ? 12 : 96,
    names,
    [&](int use) { cca::cuda::SetLargestSubtracted(uses[use]); },
    makeCase,
    large,
    0,
    tally);
}

/** Label images of byte masks whose rows are wide enough (2048 pixels and
 *  more) to be made from their runs alone where a row has at most 32 of
 *  them, others from their pixels (WriteByteLabelImageKernel,
 *  cuda/Compaction.cuh): granularities from 1 (hundreds of runs a row) to
 *  2048 (a few), every density, both connectivities and label widths,
 *  labels only or with the table and the runs, a selection that removes
 *  objects. */
void
WideRowChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  const int granularities[] = { 1, 16, 128, 512, 2048 };
  const int cases = quick ? 8 : 60;
  for (int i = 0; i < cases; ++i)
  {
    const std::uint32_t caseSeed = 1500000 + seed + static_cast<std::uint32_t>(i);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const int           dim = pick(4) == 0 ? 3 : 2;
    const std::int64_t  nx = 2048 + 16 * pick(129);
    const std::int64_t  ny = 1 + pick(dim == 2 ? 40 : 6);
    const std::int64_t  nz = dim == 3 ? 1 + pick(4) : 1;
    const Mask          mask = RandomMask(dim, nx, ny, nz, pick(11) / 10.0, granularities[pick(5)], caseSeed);
    cca::Options        options;
    options.connectivity = pick(2) == 0 ? Connectivity::Face : Connectivity::Full;
    options.labelImageType = pick(2) == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
    options.computeFeatures = pick(3) != 0;
    options.computeRuns = pick(2) != 0;
    if (options.computeFeatures && pick(3) == 0)
    {
      options.selection.minimumPixels = 1 + pick(64);
    }
    Check(engine, Plain(mask), options, "wide rows seed=" + std::to_string(caseSeed), tally);
  }
}

/** The table under full connectivity, whose perimeter pairs the
 *  union-find counts (cuda/PrecedingPairs.cuh), on masks of rows of
 *  40,000 to 70,000 pixels and runs of thousands: long runs' counts do not
 *  fit their 16-bit fields and the votes search those rows themselves; the
 *  union-find's row blocks and groups the default or a few rows. */
void
LongRunPairChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  const int cases = quick ? 4 : 24;
  for (int i = 0; i < cases; ++i)
  {
    const std::uint32_t caseSeed = 1600000 + seed + static_cast<std::uint32_t>(i);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const int           dim = pick(3) == 0 ? 3 : 2;
    const std::int64_t  nx = 40000 + 16 * pick(1875);
    const std::int64_t  ny = 1 + pick(dim == 2 ? 20 : 4);
    const std::int64_t  nz = dim == 3 ? 1 + pick(3) : 1;
    const Mask          mask = RandomMask(dim, nx, ny, nz, 0.7 + pick(4) / 10.0, 1024 << pick(4), caseSeed);
    cca::Options        options;
    options.connectivity = Connectivity::Full;
    options.labelImageType = pick(2) == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
    options.computeRuns = pick(2) != 0;
    cca::cuda::SetLinkBlockRows(pick(2) != 0 ? 1 + pick(3) : 0);
    cca::cuda::SetLinkFanIn(pick(2) != 0 ? 2 + pick(3) : 0);
    Check(engine, Plain(mask), options, "long-run pairs seed=" + std::to_string(caseSeed), tally);
    cca::cuda::SetLinkBlockRows(0);
    cca::cuda::SetLinkFanIn(0);
  }
}

/** Labels only under full connectivity with the label image as the only
 *  output: the runs the block labeling takes (cuda/BlockLabeling.cuh). */
void
AskBlockLabeling(cca::Options & options)
{
  options.connectivity = Connectivity::Full;
  options.computeRuns = false;
  options.computeFeatures = false;
  options.countAtomicUpdates = false;
}

/** One random case, fully determined by its seed; blocks: labels only
 *  under full connectivity with the label image as the only output, the
 *  runs the block labeling takes (cuda/BlockLabeling.cuh); streamable: a
 *  width rounded up to a multiple of 16, whose foreground bits a streamed
 *  upload takes (HostStaging::UploadStreamed). */
void
RandomCase(cca::Engine & engine, std::uint32_t seed, Tally & tally, bool blocks = false, bool streamable = false)
{
  std::mt19937 rng(seed);
  auto         pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
  const int    dim = pick(3) == 0 ? 3 : 2;
  auto         extent = [&](int typical) -> std::int64_t {
    switch (pick(6))
    {
      case 0:
        return 1 + pick(4); // degenerate
      case 1:
        return 32 * (1 + pick(4)) + pick(3) - 1; // around warp multiples
      default:
        return 1 + pick(typical);
    }
  };
  std::int64_t nx = extent(dim == 2 ? 300 : 48);
  if (streamable)
  {
    nx = (nx + 15) / 16 * 16; // no draw: the rest of the case is the same
  }
  const std::int64_t ny = extent(dim == 2 ? 200 : 40);
  const std::int64_t nz = dim == 3 ? extent(24) : 1;
  const int          granularities[] = { 1, 4, 16 };
  const int          g = granularities[pick(3)];
  const double       density = pick(11) / 10.0;
  const Mask         mask = RandomMask(dim, nx, ny, nz, density, g, seed);

  Encoding e;
  e.type = pick(2) == 0 ? PixelType::UInt8 : allTypes[pick(8)];
  e.rule = pick(2) == 0 ? ForegroundRule::NotEqualTo : ForegroundRule::EqualTo;
  const std::int64_t values[] = { 0,
                                  1,
                                  -1,
                                  255,
                                  1000,
                                  -70000,
                                  std::numeric_limits<std::int64_t>::min(),
                                  static_cast<std::int64_t>(0x123456789abcdef0ULL) };
  e.value = values[pick(8)];
  if (pick(4) == 0)
  {
    e.strideX = 1 + pick(2);
    e.rowPad = pick(5);
    e.slicePad = pick(5);
    e.denseStrides = e.strideX == 1 && e.rowPad == 0 && e.slicePad == 0;
  }
  const TestImage image = Encode(mask, e, seed);

  cca::Options options;
  options.foregroundRule = e.rule;
  options.foregroundValue = e.value;
  options.connectivity = pick(2) == 0 ? Connectivity::Face : Connectivity::Full;
  options.computeRuns = pick(5) != 0;
  const LabelImageType labelTypes[] = { LabelImageType::None, LabelImageType::UInt32, LabelImageType::UInt64 };
  options.labelImageType = labelTypes[pick(3)];
  options.computeFeatures = pick(4) != 0;    // labels only: no feature table
  options.countAtomicUpdates = pick(4) == 0; // the instrumentation must not change the result
  if (blocks)
  {
    AskBlockLabeling(options);
  }
  Check(engine, image, options, (blocks ? "blocks seed=" : "random seed=") + std::to_string(seed), tally);
}

/** The block labeling, forced, on random cases and on large images around
 *  the percolation threshold of full connectivity (2D 0.4, 3D about 0.2),
 *  where the unions race most; odd sizes cut the last blocks. */
void
BlockLabelingChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  cca::cuda::SetBlockLabeling(cca::cuda::BlockLabelingUse::Always);
  const int cases = quick ? 20 : 200;
  for (int i = 0; i < cases; ++i)
  {
    RandomCase(engine, 900000 + seed + static_cast<std::uint32_t>(i), tally, true);
  }
  struct Large
  {
    int          dim;
    std::int64_t nx, ny, nz;
    double       density;
    bool         inQuick; ///< small enough for --quick (compute-sanitizer runs it)
  };
  const Large large[] = { { 2, 2047, 2049, 1, 0.4, false }, { 2, 2048, 2048, 1, 0.6, false },
                          { 3, 191, 193, 195, 0.2, false }, { 3, 192, 192, 192, 0.3, false },
                          { 3, 129, 127, 128, 0.5, true },  { 2, 511, 513, 1, 0.45, true } };
  for (std::size_t i = 0; i < std::size(large); ++i)
  {
    if (quick && !large[i].inQuick)
    {
      continue;
    }
    const Large & l = large[i];
    const Mask    mask = RandomMask(l.dim, l.nx, l.ny, l.nz, l.density, 1, seed + 1000 + static_cast<std::uint32_t>(i));
    const TestImage image = Plain(mask);
    cca::Options    options;
    AskBlockLabeling(options);
    options.labelImageType = i % 2 == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
    Check(engine, image, options, "blocks large " + std::to_string(i), tally);
  }
  cca::cuda::SetBlockLabeling(cca::cuda::BlockLabelingUse::Automatic);
}

/** A random case of the strips' checks, drawn from its seed: a mask of
 *  whole 16-pixel lane loads a row (up to four 512-pixel stretches, which
 *  the union-find takes in parts), odd and even heights and depths, a
 *  volume one time in volumeOneIn, one of granularities; encoded in any
 *  pixel type (host images cross as foreground bits) under either rule,
 *  which options get. pick draws on after it. */
template <class Pick>
TestImage
RandomStripCase(Pick &        pick,
                std::uint32_t caseSeed,
                const int (&granularities)[3],
                int            volumeOneIn,
                cca::Options & options)
{
  const int  dim = pick(volumeOneIn) == 0 ? 3 : 2;
  const Mask mask = RandomMask(dim,
                               16 * (1 + pick(dim == 2 ? 100 : 40)),
                               1 + pick(dim == 2 ? 150 : 40),
                               dim == 2 ? 1 : 1 + pick(30),
                               pick(11) / 10.0,
                               granularities[pick(3)],
                               caseSeed);
  Encoding   e;
  e.type = pick(2) == 0 ? PixelType::UInt8 : allTypes[pick(8)];
  e.rule = pick(2) == 0 ? ForegroundRule::NotEqualTo : ForegroundRule::EqualTo;
  e.value = pick(2) == 0 ? 0 : 7;
  options.foregroundRule = e.rule;
  options.foregroundValue = e.value;
  return Encode(mask, e, caseSeed);
}

/** Large random masks (g = 1) of the strips' checks, around the
 *  percolation thresholds, mask k seeded with seed + k: check(k, mask) for
 *  each, in --quick only those small enough for compute-sanitizer. */
struct LargeStripMask
{
  std::int64_t nx, ny, nz;
  double       density;
  bool         inQuick;
};
template <class CheckMask>
void
ForLargeStripMasks(bool quick, std::uint32_t seed, std::initializer_list<LargeStripMask> masks, CheckMask && check)
{
  std::size_t k = 0;
  for (const LargeStripMask & l : masks)
  {
    if (!quick || l.inQuick)
    {
      check(k, RandomMask(l.nz > 1 ? 3 : 2, l.nx, l.ny, l.nz, l.density, 1, seed + static_cast<std::uint32_t>(k)));
    }
    ++k;
  }
}

/** The strip labeling (cuda/StripLabeling.cuh; tubes of 2 x 2 rows in
 *  volumes), forced: labels only under full connectivity, widths of whole
 *  16-pixel lane loads (up to four 512-pixel stretches, which the
 *  union-find takes in parts), odd and even heights and depths, every pixel type
 *  (host images cross as foreground bits) and rule, and large images around
 *  the percolation threshold (26-connected volumes: about 0.2). */
void
StripLabelingChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  cca::cuda::SetStripLabeling(cca::cuda::StripLabelingUse::Always);
  const int cases = quick ? 20 : 200;
  for (int i = 0; i < cases; ++i)
  {
    const std::uint32_t caseSeed = 960000 + seed + static_cast<std::uint32_t>(i);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const int           granularities[] = { 1, 4, 16 };
    cca::Options        options;
    const TestImage     image = RandomStripCase(pick, caseSeed, granularities, 3, options);
    AskBlockLabeling(options);
    options.labelImageType = pick(2) == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
    Check(engine, image, options, "strips seed=" + std::to_string(caseSeed), tally);
  }
  ForLargeStripMasks(quick,
                     seed + 2000,
                     { { 2048, 2047, 1, 0.45, false },
                       { 2048, 2048, 1, 0.6, false },
                       { 512, 513, 1, 0.5, true },
                       { 192, 191, 193, 0.2, false },
                       { 256, 256, 256, 0.5, false },
                       { 128, 127, 129, 0.3, true } },
                     [&](std::size_t k, const Mask & mask) {
                       cca::Options options;
                       AskBlockLabeling(options);
                       options.labelImageType = k % 2 == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
                       Check(engine, Plain(mask), options, "strips large " + std::to_string(k), tally);
                     });
  for (const auto & shape : ccatest::StripFirstPixelShapes())
  {
    Mask m(shape.dimension, shape.size[0], shape.size[1], shape.size[2], "strip first pixels, " + shape.name);
    m.on = ccatest::StripFirstPixelMask(shape);
    cca::Options options;
    AskBlockLabeling(options);
    options.labelImageType = LabelImageType::UInt32;
    Check(engine, Plain(m), options, m.description, tally);
  }
  cca::cuda::SetStripLabeling(cca::cuda::StripLabelingUse::Automatic);
}

/** The feature table's runs joined through the strips (cuda/StripJoin.cuh;
 *  tubes of 2 x 2 rows in volumes), forced: full connectivity with the
 *  table, the runs and the label image in some cases and a selection in
 *  others, widths of whole 16-pixel lane loads, odd and even heights and
 *  depths, every pixel type (host images cross as foreground bits) and
 *  rule, and large images around the percolation thresholds, whose planes
 *  also by the default choice (strips from a sampled foreground fraction
 *  of 0.45 on). */
void
StripJoinChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  cca::cuda::SetStripLabeling(cca::cuda::StripLabelingUse::Always);
  const int cases = quick ? 20 : 200;
  for (int i = 0; i < cases; ++i)
  {
    const std::uint32_t caseSeed = 970000 + seed + static_cast<std::uint32_t>(i);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const int           granularities[] = { 1, 2, 4 };
    cca::Options        options;
    const TestImage     image = RandomStripCase(pick, caseSeed, granularities, 2, options);
    options.connectivity = Connectivity::Full;
    options.computeRuns = pick(2) == 0;
    options.labelImageType =
      pick(3) == 0 ? LabelImageType::None : (pick(2) == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64);
    if (pick(4) == 0)
    {
      options.selection.minimumPixels = 1 + pick(3);
    }
    Check(engine, image, options, "strip joins seed=" + std::to_string(caseSeed), tally);
  }
  ForLargeStripMasks(
    quick,
    seed + 3000,
    { { 2048, 2047, 1, 0.6, false },
      { 512, 513, 1, 0.4, true },
      { 192, 191, 193, 0.2, false },
      { 256, 256, 256, 0.5, false },
      { 128, 127, 129, 0.3, true } },
    [&](std::size_t k, const Mask & mask) {
      cca::Options options;
      options.connectivity = Connectivity::Full;
      options.labelImageType = k % 2 == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
      Check(engine, Plain(mask), options, "strip joins large " + std::to_string(k), tally);
      if (mask.dimension == 2)
      {
        cca::cuda::SetStripLabeling(cca::cuda::StripLabelingUse::Automatic);
        Check(engine, Plain(mask), options, "strip joins large " + std::to_string(k) + " by the default choice", tally);
        cca::cuda::SetStripLabeling(cca::cuda::StripLabelingUse::Always);
      }
    });
  cca::cuda::SetStripLabeling(cca::cuda::StripLabelingUse::Automatic);
}

/** The foreground sample that the run count takes while the image
 *  arrives (ForegroundSample, cuda/RunDetection.cuh; ccaSampledRows.h), by
 *  which the engine chooses its labeling: on random masks whose labeling
 *  reads it (labels only of volumes under full connectivity, of planes of
 *  whole 16-pixel lane loads; volumes of up to 54,000 rows, sampled in
 *  blocks of 64 rows and more), any pixel type and rule, uploaded in slabs
 *  or whole, it must equal the mask's foreground fraction over those rows,
 *  and the labels the CPU's. */
void
SampledForegroundChecks(cca::Engine & engine, bool quick, std::uint32_t seed, Tally & tally)
{
  const int cases = quick ? 8 : 60;
  for (int i = 0; i < cases; ++i)
  {
    const std::uint32_t caseSeed = 950000 + seed + static_cast<std::uint32_t>(i);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const int           dim = pick(2) == 0 ? 3 : 2;
    const std::int64_t  nx = dim == 2 ? 16 * (1 + pick(40)) : 1 + pick(80);
    const std::int64_t  ny = 1 + pick(dim == 2 ? 400 : 90);
    // A volume of up to 54,000 rows (the blocks' choice reads the sample).
    const std::int64_t nz = dim == 3 ? 2 + pick(599) : 1;
    const Mask         mask = RandomMask(dim, nx, ny, nz, pick(11) / 10.0, 1 + pick(4), caseSeed);
    Encoding           e;
    e.type = allTypes[pick(8)];
    e.rule = pick(2) == 0 ? ForegroundRule::NotEqualTo : ForegroundRule::EqualTo;
    e.value = pick(2) == 0 ? 0 : 7;
    const TestImage image = Encode(mask, e, caseSeed);
    cca::Options    options;
    options.foregroundRule = e.rule;
    options.foregroundValue = e.value;
    options.computeRuns = false;
    options.computeFeatures = false;
    options.connectivity = dim == 3 ? Connectivity::Full : (pick(2) == 0 ? Connectivity::Face : Connectivity::Full);
    options.labelImageType = pick(2) == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
    cca::cuda::SetUploadSlabBytes(pick(2) == 0 ? 0 : static_cast<std::size_t>(1 + pick(5000)));
    const std::string name = "sampled foreground seed=" + std::to_string(caseSeed);
    const bool        same = Check(engine, image, options, name, tally);
    cca::cuda::SetUploadSlabBytes(0);
    std::int64_t sampled = 0;
    std::int64_t sampledRows = 0;
    for (std::int64_t r = 0; r < ny * nz; ++r)
    {
      if (!ccatest::IsSampledRow(r, ny * nz))
      {
        continue;
      }
      ++sampledRows;
      for (std::int64_t x = 0; x < nx; ++x)
      {
        sampled += mask.on[static_cast<std::size_t>(r * nx + x)] != 0 ? 1 : 0;
      }
    }
    const double expected = static_cast<double>(sampled) / static_cast<double>(sampledRows * nx);
    const double fraction = cca::cuda::LastSampledForegroundFraction();
    if (same && fraction != expected)
    {
      --tally.passed;
      ++tally.failed;
      std::cout << "FAIL " << name << " [" << mask.description << "]: sampled foreground fraction " << fraction
                << ", expected " << expected << std::endl;
    }
  }
}

void
EdgeCases(cca::Engine & engine, bool reduced, Tally & tally)
{
  std::vector<Mask> masks;
  masks.push_back(Filled(2, 1, 1, 1, false, "1x1 empty"));
  masks.push_back(Filled(2, 1, 1, 1, true, "1x1 full"));
  masks.push_back(RandomMask(2, 1, 5000, 1, 0.5, 1, 11)); // 1xN
  masks.push_back(Filled(2, 1, 5000, 1, true, "1x5000 full"));
  masks.push_back(RandomMask(2, 5000, 1, 1, 0.5, 1, 12)); // Nx1
  masks.push_back(Filled(2, 5000, 1, 1, true, "5000x1 full"));
  masks.push_back(RandomMask(2, 16385, 3, 1, 0.5, 1, 13));
  masks.push_back(RandomMask(2, 16385, 3, 1, 0.9, 4, 14));
  masks.push_back(Filled(2, 16385, 3, 1, true, "16385x3 full"));
  masks.push_back(Filled(2, 257, 129, 1, true, "257x129 full"));
  masks.push_back(Filled(3, 33, 17, 9, true, "33x17x9 full"));
  masks.push_back(Filled(2, 300, 200, 1, false, "300x200 empty"));
  masks.push_back(Filled(3, 20, 20, 20, false, "20^3 empty"));
  masks.push_back(Checkerboard(2, 129, 65, 1));
  masks.push_back(Checkerboard(3, 31, 17, 9));
  masks.push_back(Spiral(257));
  masks.push_back(Spiral(64));
  for (std::int64_t w : { 31, 32, 33, 64, 127, 128, 129, 255, 256, 257 })
  {
    masks.push_back(Filled(2, w, 3, 1, true, "full width " + std::to_string(w)));
    masks.push_back(RandomMask(2, w, 40, 1, 0.6, 1, static_cast<std::uint32_t>(w)));
  }
  masks.push_back(Filled(3, 1, 1, 40, true, "1x1x40 full"));
  masks.push_back(RandomMask(3, 1, 1, 400, 0.5, 1, 15));
  masks.push_back(RandomMask(3, 64, 1, 64, 0.5, 1, 16));
  masks.push_back(RandomMask(3, 1, 64, 64, 0.5, 1, 17));
  masks.push_back(RandomMask(3, 40, 30, 1, 0.5, 1, 18)); // a 3D image one slice deep still has z faces
  for (std::size_t i = 0; i < masks.size(); ++i)
  {
    const Mask &    m = masks[i];
    const TestImage image = Plain(m);
    for (Connectivity c : { Connectivity::Face, Connectivity::Full })
    {
      for (LabelImageType l : { LabelImageType::None, LabelImageType::UInt32, LabelImageType::UInt64 })
      {
        // Reduced (quick runs of the other algorithms): every other mask,
        // one combination each, cycling through connectivity and label type.
        const Connectivity   reducedC = (i / 2) % 2 == 0 ? Connectivity::Face : Connectivity::Full;
        const LabelImageType reducedL = (i / 4) % 2 == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
        if (reduced && (i % 2 != 0 || c != reducedC || l != reducedL))
        {
          continue;
        }
        cca::Options options;
        options.connectivity = c;
        options.labelImageType = l;
        Check(engine, image, options, "edge " + m.description, tally);
      }
    }
  }
}

/** The same image several times on one engine: identical output each time. */
void
Repeatability(cca::Engine & engine, int images, Tally & tally)
{
  for (int i = 0; i < images; ++i)
  {
    const auto seed = static_cast<std::uint32_t>(900000 + i);
    const Mask mask = RandomMask(i % 2 ? 3 : 2, i % 2 ? 60 : 700, i % 2 ? 50 : 500, 40, 0.6, 1 + 3 * (i % 2), seed);
    const TestImage image = Plain(mask);
    cca::Options    options;
    options.connectivity = i % 3 ? Connectivity::Full : Connectivity::Face;
    options.labelImageType = LabelImageType::UInt32;
    options.backend = cca::Backend::Cuda;
    const Outcome first = RunBackend(engine, image, options, cca::Backend::Cuda);
    for (int k = 0; k < 3; ++k)
    {
      const Outcome     again = RunBackend(engine, image, options, cca::Backend::Cuda);
      const std::string problem = Compare(first, again, options);
      if (!problem.empty())
      {
        ++tally.failed;
        std::cout << "FAIL " << cca::AlgorithmName(currentAlgorithm) << " repeat seed=" << seed << " run " << k + 1
                  << ": " << problem << std::endl;
      }
      else
      {
        ++tally.passed;
      }
    }
  }
}

/** The atomic-update instrumentation (Lemaitre 2021 section 4.1) on one
 *  257 x 129 component, where the updates can be counted by hand: naive, one
 *  per pixel; HA, one per sub-run (9 blocks of at most 32 pixels a row);
 *  FLSL, one per run (row). With conflict detection (one block of 256
 *  threads for 129 runs: 4 full warps and one of one run fold into the
 *  block's shared entry, then one global merge) 6; the default, whose warps
 *  fold into records of their own without atomics (HotFolding::WarpSlots),
 *  only each vote block's global merge: 2 with the dense table's narrow
 *  entries (blocks of 128 threads), 1 with wide ones (256), both checked;
 *  HA+CD, 1161 sub-runs in 5
 *  blocks: 4 x (8 + 1) + (5 + 1) = 42. All updates hit one entry, so the
 *  estimated conflicts equal the updates. OTF moves features at least once
 *  per union (units - 1). Off: both fields stay -1. */
void
CountingChecks(cca::Engine & engine, Tally & tally)
{
  const Mask      mask = Filled(2, 257, 129, 1, true, "257x129 full");
  const TestImage image = Plain(mask);
  std::int64_t    exact = -1;
  std::int64_t    atLeast = -1;
  // The default algorithm's merges: one a vote block of its 129 runs.
  const auto defaultMerges = [](bool narrowEntries) {
    const int threads = cca::cuda::FeatureVoteBlockThreads(narrowEntries);
    return (129 + threads - 1) / threads;
  };
  switch (currentAlgorithm)
  {
    case Algorithm::Naive:
      exact = 257 * 129;
      break;
    case Algorithm::HA:
      exact = 9 * 129;
      break;
    case Algorithm::FLSL:
      exact = 129;
      break;
    case Algorithm::Default:
      exact = defaultMerges(true);
      break;
    case Algorithm::FLSL_CD:
      exact = 6;
      break;
    case Algorithm::HA_CD:
      exact = 42;
      break;
    case Algorithm::HA_OTF:
      atLeast = 9 * 129 - 1;
      break;
    case Algorithm::FLSL_OTF:
      atLeast = 129 - 1;
      break;
    case Algorithm::LE_Late:
    case Algorithm::TM_Late:
      exact = 257 * 129; // one plain vote per pixel after relabeling
      break;
    case Algorithm::LE_Early:
    case Algorithm::TM_Early:
      atLeast = 257 * 129 - 1; // every pixel but the root hands its record on at least once
      break;
    case Algorithm::DLP:
      atLeast = 1; // conflict-detection votes of pixel units
      break;
  }
  // The default algorithm's wide entries too (NarrowTableUse::Never).
  const bool narrowForms = currentAlgorithm == Algorithm::Default;
  for (int form = 0; form < (narrowForms ? 4 : 2); ++form)
  {
    const Connectivity c = form % 2 == 0 ? Connectivity::Face : Connectivity::Full;
    const bool         wide = form >= 2;
    const std::int64_t expected = wide ? defaultMerges(false) : exact;
    cca::cuda::SetNarrowTable(wide ? cca::cuda::NarrowTableUse::Never : cca::cuda::NarrowTableUse::Automatic);
    cca::Options options;
    options.connectivity = c;
    options.backend = cca::Backend::Cuda;
    options.algorithm = currentAlgorithm;
    std::ostringstream problem;
    try
    {
      const cca::Result off = engine.Run(image.view, options);
      if (off.atomicFeatureUpdates != -1 || off.estimatedConflicts != -1)
      {
        problem << "counting off gave " << off.atomicFeatureUpdates << " / " << off.estimatedConflicts;
      }
      options.countAtomicUpdates = true;
      const cca::Result  on = engine.Run(image.view, options);
      const std::int64_t u = on.atomicFeatureUpdates;
      if (on.componentCount != 1 || on.features[0].pixelCount != 257 * 129)
      {
        problem << "wrong table with counting on";
      }
      else if (expected >= 0 && (u != expected || on.estimatedConflicts != static_cast<double>(expected)))
      {
        problem << "updates " << u << " conflicts " << on.estimatedConflicts << ", expected " << expected;
      }
      else if (atLeast >= 0 && (u < atLeast || on.estimatedConflicts <= 0 || on.estimatedConflicts > u))
      {
        problem << "updates " << u << " conflicts " << on.estimatedConflicts << ", expected at least " << atLeast;
      }
      // A background-only image: nothing to update.
      const cca::Result none = engine.Run(Plain(Filled(2, 40, 30, 1, false, "empty")).view, options);
      if (none.atomicFeatureUpdates != 0 || none.estimatedConflicts != 0)
      {
        problem << " empty image: updates " << none.atomicFeatureUpdates << " conflicts " << none.estimatedConflicts;
      }
    }
    catch (const std::exception & e)
    {
      problem << "exception: " << e.what();
    }
    cca::cuda::SetNarrowTable(cca::cuda::NarrowTableUse::Automatic);
    if (problem.tellp() == 0)
    {
      ++tally.passed;
    }
    else
    {
      ++tally.failed;
      std::cout << "FAIL " << cca::AlgorithmName(currentAlgorithm) << " counting ["
                << (c == Connectivity::Full ? "full" : "face") << (wide ? ", wide entries" : "")
                << "]: " << problem.str() << std::endl;
    }
  }
}

/** The feature compactions other than Scan (Windisch 2023's tree merge kernel,
 *  the sparse table copied whole) against the CPU on a subset: 2D and 3D,
 *  both connectivities, empty, checkerboards (the most components), all on
 *  (one component), random images, a few random cases (all options). Then
 *  the tree merge's guessed first copy both ways on a fresh engine (a count
 *  above the guess needs a second copy, the same count again does not), and
 *  bytesCopiedToHost of the three modes on one image: None copies the
 *  sparse table (units - components more records than Scan), TreeMerge a
 *  whole number of its nodes instead of Scan's records. */
void
CompactionChecks(bool quick, std::uint32_t seed, Tally & tally)
{
  std::vector<Mask> masks;
  masks.push_back(Filled(2, 300, 200, 1, false, "300x200 empty"));
  masks.push_back(Filled(3, 20, 20, 20, false, "20^3 empty"));
  masks.push_back(Checkerboard(2, 129, 65, 1));
  masks.push_back(Checkerboard(3, 31, 17, 9));
  masks.push_back(Filled(2, 257, 129, 1, true, "257x129 full"));
  masks.push_back(Filled(3, 33, 17, 9, true, "33x17x9 full"));
  masks.push_back(Filled(2, 1, 1, 1, true, "1x1 full"));
  masks.push_back(RandomMask(2, 700, 500, 1, 0.5, 1, 31));
  masks.push_back(RandomMask(2, 300, 300, 1, 0.7, 4, 32));
  masks.push_back(RandomMask(3, 60, 50, 40, 0.3, 1, 33));
  masks.push_back(RandomMask(3, 48, 40, 24, 0.6, 4, 34));
  for (const cca::FeatureCompaction compaction : { cca::FeatureCompaction::TreeMerge, cca::FeatureCompaction::None })
  {
    currentCompaction = compaction;
    cca::Engine engine;
    for (std::size_t i = 0; i < masks.size(); ++i)
    {
      const TestImage image = Plain(masks[i]);
      for (Connectivity c : { Connectivity::Face, Connectivity::Full })
      {
        cca::Options options;
        options.connectivity = c;
        options.labelImageType =
          (i + (c == Connectivity::Full ? 1 : 0)) % 2 == 0 ? LabelImageType::UInt32 : LabelImageType::UInt64;
        Check(engine, image, options, "compaction " + masks[i].description, tally);
      }
    }
    const int cases = quick ? 4 : 20;
    for (int i = 0; i < cases; ++i)
    {
      RandomCase(engine, 700000 + seed + static_cast<std::uint32_t>(i), tally);
    }
  }

  // The guessed first copy, both ways.
  currentCompaction = cca::FeatureCompaction::TreeMerge;
  {
    cca::Engine     engine;
    const TestImage many = Plain(Checkerboard(2, 200, 200, 1)); // 20000 components with Face
    const TestImage few = Plain(RandomMask(2, 200, 200, 1, 0.7, 4, 35));
    cca::Options    options;
    options.labelImageType = LabelImageType::UInt32;
    for (const ccatest::TreeCopyStep & step : ccatest::TreeCopySteps)
    {
      const std::int64_t before = cca::cuda::TreeMergeSecondCopies();
      if (Check(engine, step.manyComponents ? many : few, options, std::string("tree copy: ") + step.what, tally))
      {
        const bool second = cca::cuda::TreeMergeSecondCopies() != before;
        if (second != step.secondCopy)
        {
          --tally.passed;
          ++tally.failed;
          std::cout << "FAIL " << cca::AlgorithmName(currentAlgorithm) << " tree copy: " << step.what << ": "
                    << (second ? "a" : "no") << " second copy" << std::endl;
        }
      }
    }
  }

  // bytesCopiedToHost: Default (full runs as units: units = runs) only.
  if (currentAlgorithm == Algorithm::Default)
  {
    const TestImage image = Plain(RandomMask(2, 300, 200, 1, 0.5, 1, 36));
    cca::Options    options;
    options.connectivity = Connectivity::Full;
    options.labelImageType = LabelImageType::UInt32;
    std::int64_t                 bytes[3] = { 0, 0, 0 };
    cca::Result                  scan;
    const cca::FeatureCompaction modes[] = { cca::FeatureCompaction::Scan,
                                             cca::FeatureCompaction::None,
                                             cca::FeatureCompaction::TreeMerge };
    cca::Engine                  engine;
    for (int k = 0; k < 3; ++k)
    {
      currentCompaction = modes[k];
      const Outcome out = RunBackend(engine, image, options, cca::Backend::Cuda);
      bytes[k] = out.result.bytesCopiedToHost;
      if (k == 0)
      {
        scan = out.result;
      }
    }
    const std::int64_t record = sizeof(cca::ComponentFeatures);
    const std::int64_t node = 232; // CompactedFeatureNode: the record, its label and the tree size
    const std::int64_t components = scan.componentCount;
    const std::int64_t units = static_cast<std::int64_t>(scan.runs.size());
    const std::int64_t payload = components * record + units * 16 + (components + 1) * 8 + 300 * 200 * 4;
    const std::int64_t treeExtra = bytes[2] - bytes[0] + components * record;
    std::ostringstream problem;
    if (bytes[0] < payload || bytes[0] > payload + 64)
    {
      problem << "Scan copied " << bytes[0] << " bytes for a payload of " << payload << "; ";
    }
    if (bytes[1] - bytes[0] != (units - components) * record)
    {
      problem << "None copied " << bytes[1] << " bytes, Scan " << bytes[0] << ", " << units << " units, " << components
              << " components; ";
    }
    if (treeExtra % node != 0 || treeExtra / node < components)
    {
      problem << "TreeMerge copied " << bytes[2] << " bytes, Scan " << bytes[0] << "; ";
    }
    // The same table's narrow entries widened on the host (src/NarrowFeatures.h;
    // the default widens few on the device): in this 2D image 96 bytes an
    // entry cross instead of 216 (planar entries, the default), or 160
    // (NarrowFeatures), and the features are the same.
    currentCompaction = cca::FeatureCompaction::Scan;
    cca::cuda::SetNarrowTable(cca::cuda::NarrowTableUse::HostWidening);
    for (const bool planar : { true, false })
    {
      cca::cuda::SetPlanarTable(planar ? cca::cuda::PlanarTableUse::Automatic : cca::cuda::PlanarTableUse::Never);
      const Outcome      narrow = RunBackend(engine, image, options, cca::Backend::Cuda);
      const std::int64_t entry = planar ? 96 : 160;
      const std::int64_t narrowSaved = components * (record - entry);
      if (bytes[0] - narrow.result.bytesCopiedToHost != narrowSaved)
      {
        problem << "Scan with " << entry << "-byte entries copied " << narrow.result.bytesCopiedToHost
                << " bytes, wide " << bytes[0] << ", " << components << " components; ";
      }
      if (narrow.result.features.size() != scan.features.size() ||
          std::memcmp(narrow.result.features.data(),
                      scan.features.data(),
                      scan.features.size() * sizeof(cca::ComponentFeatures)) != 0)
      {
        problem << "Scan with " << entry << "-byte entries widened on the host measured other features than "
                << "the default; ";
      }
    }
    cca::cuda::SetNarrowTable(cca::cuda::NarrowTableUse::Automatic);
    cca::cuda::SetPlanarTable(cca::cuda::PlanarTableUse::Automatic);
    if (problem.tellp() == 0)
    {
      ++tally.passed;
    }
    else
    {
      ++tally.failed;
      std::cout << "FAIL bytesCopiedToHost: " << problem.str() << std::endl;
    }
  }
  currentCompaction = cca::FeatureCompaction::Scan;
}

/** More than 2^31 pixels (65536 x 32769 uint8): 64-bit pixel offsets everywhere. */
void
LargeImage(cca::Engine & engine, Tally & tally)
{
  const auto start = std::chrono::steady_clock::now();
  const Mask mask = RandomMask(2, 65536, 32769, 1, 0.5, 64, 424242);
  TestImage  image;
  image.view.data = mask.on.data();
  image.view.pixelType = PixelType::UInt8;
  image.view.dimension = 2;
  image.view.size[0] = mask.size[0];
  image.view.size[1] = mask.size[1];
  image.description = mask.description;
  cca::Options options;
  options.connectivity = Connectivity::Full;
  options.labelImageType = LabelImageType::UInt32;
  Check(engine, image, options, "large 65536x32769", tally);
  std::cout << "large image (" << image.view.NumberOfPixels() << " pixels) checked in "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s" << std::endl;
}

} // namespace

int
main(int argc, char * argv[])
{
  bool                   quick = false;
  bool                   large = true;
  int                    cases = -1;
  std::uint32_t          seed = 1;
  std::vector<Algorithm> algorithms(std::begin(allAlgorithms), std::end(allAlgorithms));
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    if (arg == "--quick")
    {
      quick = true;
    }
    else if (arg == "--no-large")
    {
      large = false;
    }
    else if (arg == "--cases" && i + 1 < argc)
    {
      cases = std::stoi(argv[++i]);
    }
    else if (arg == "--seed" && i + 1 < argc)
    {
      seed = static_cast<std::uint32_t>(std::stoul(argv[++i]));
    }
    else if (arg == "--algorithm" && i + 1 < argc)
    {
      const std::string name = argv[++i];
      algorithms.clear();
      for (Algorithm a : allAlgorithms)
      {
        if (name == "all" || name == cca::AlgorithmName(a))
        {
          algorithms.push_back(a);
        }
      }
      if (algorithms.empty())
      {
        std::cerr << "unknown algorithm " << name << "; one of all";
        for (Algorithm a : allAlgorithms)
        {
          std::cerr << " " << cca::AlgorithmName(a);
        }
        std::cerr << std::endl;
        return 2;
      }
    }
    else
    {
      std::cerr << "usage: " << argv[0] << " [--quick] [--no-large] [--cases N] [--seed S] [--algorithm NAME|all]"
                << std::endl;
      return 2;
    }
  }
  if (!cca::Engine::CudaAvailable())
  {
    std::cout << "skipped: no CUDA device" << std::endl;
    return 77;
  }
  if (quick)
  {
    large = false;
  }

  const auto start = std::chrono::steady_clock::now();
  int        failed = 0;
  int        passed = 0;
  for (Algorithm algorithm : algorithms)
  {
    currentAlgorithm = algorithm;
    const bool   isDefault = algorithm == Algorithm::Default;
    const char * name = cca::AlgorithmName(algorithm);
    // With all algorithms, the others run a sixth of the default's random cases.
    const int   defaultCases = cases >= 0 ? cases : (quick ? 40 : 1200);
    const bool  alone = algorithms.size() == 1;
    const int   randomCases = isDefault || alone ? defaultCases : std::max(1, defaultCases / 6);
    const auto  algorithmStart = std::chrono::steady_clock::now();
    cca::Engine engine;
    Tally       random, edge, repeat, wide, counting, big, compaction, slabs, regions, streamed, ordinary, oneStream,
      wideCounts;
    for (int i = 0; i < randomCases; ++i)
    {
      RandomCase(engine, seed + static_cast<std::uint32_t>(i), random);
    }
    std::cout << name << " random: " << random.passed << " passed, " << random.failed << " failed" << std::endl;

    EdgeCases(engine, quick && !isDefault, edge);
    std::cout << name << " edge cases: " << edge.passed << " passed, " << edge.failed << " failed" << std::endl;

    Repeatability(engine, quick ? (isDefault ? 2 : 0) : (isDefault ? 6 : 2), repeat);
    std::cout << name << " repeatability: " << repeat.passed << " passed, " << repeat.failed << " failed" << std::endl;

    CountingChecks(engine, counting);
    std::cout << name << " update counting: " << counting.passed << " passed, " << counting.failed << " failed"
              << std::endl;

    // The 64-bit run-index path on a fresh engine (its buffers have another element size).
    {
      cca::cuda::SetForceWideRunIndex(true);
      cca::Engine wideEngine;
      const int   wideCases = quick ? (isDefault ? 10 : 2) : (isDefault ? 150 : 30);
      for (int i = 0; i < wideCases; ++i)
      {
        RandomCase(wideEngine, 500000 + seed + static_cast<std::uint32_t>(i), wide);
      }
      cca::cuda::SetForceWideRunIndex(false);
      std::cout << name << " 64-bit run index: " << wide.passed << " passed, " << wide.failed << " failed" << std::endl;
    }

    // Host images uploaded in slabs of a few rows (their units counted as
    // each arrives), and a fresh engine per run: its buffers then come from
    // the process's pools, holding whatever an earlier engine left there.
    {
      const int slabCases = quick ? (isDefault ? 10 : 2) : (isDefault ? 120 : 20);
      for (int i = 0; i < slabCases; ++i)
      {
        cca::cuda::SetUploadSlabBytes(i % 4 == 3 ? 0 : static_cast<std::size_t>(1 + (i * 977) % 3000));
        cca::Engine fresh;
        RandomCase(i % 2 == 0 ? fresh : engine, 700000 + seed + static_cast<std::uint32_t>(i), slabs);
      }
      cca::cuda::SetUploadSlabBytes(0);
      std::cout << name << " upload slabs, fresh engines: " << slabs.passed << " passed, " << slabs.failed << " failed"
                << std::endl;
    }

    // Copies by regions, one per copy thread, in pieces of a few bytes
    // (HostStaging::UploadByRegions, DownloadByRegions): the host image up,
    // the label image, runs and table down, on fresh engines and on the
    // engine of the other checks.
    {
      // Start-up first, as the program and the filter call it (it prepares
      // the lanes of these copies): nothing of it may reach the runs.
      cca::Engine::StartCuda();
      const int regionCases = quick ? (isDefault ? 10 : 2) : (isDefault ? 120 : 20);
      for (int i = 0; i < regionCases; ++i)
      {
        cca::cuda::SetRegionCopies(i % 4 == 3 ? 0 : static_cast<std::size_t>(1 + (i * 389) % 20000),
                                   static_cast<std::size_t>(8 * (1 + (i * 53) % 700)));
        // The default algorithm's narrow table entries, widened as they
        // arrive, in pieces of whole entries (StreamDevice::DownloadWidenedFeaturesLater).
        cca::cuda::SetNarrowTable(i % 3 == 2 ? cca::cuda::NarrowTableUse::Automatic
                                             : cca::cuda::NarrowTableUse::HostWidening);
        cca::Engine fresh;
        RandomCase(i % 2 == 0 ? fresh : engine, 800000 + seed + static_cast<std::uint32_t>(i), regions);
      }
      cca::cuda::SetRegionCopies(0, 0);
      cca::cuda::SetNarrowTable(cca::cuda::NarrowTableUse::Automatic);
      std::cout << name << " copies by regions: " << regions.passed << " passed, " << regions.failed << " failed"
                << std::endl;
    }

    // Streamed uploads (HostStaging::UploadStreamed): host masks of widths
    // that are multiples of 16, read by the unpacking kernel from
    // page-locked memory as the copy threads pack them, in pieces of 16
    // bytes up, on fresh engines and on the engine of the other checks;
    // every fourth case with the defaults, under which these small masks
    // are not streamed. Each streamed case must have been streamed.
    {
      const int          streamedCases = quick ? (isDefault ? 10 : 2) : (isDefault ? 120 : 20);
      const std::int64_t streamedBefore = cca::cuda::StreamedUploadsMade();
      for (int i = 0; i < streamedCases; ++i)
      {
        const bool streams = i % 4 != 3;
        cca::cuda::SetStreamedUploads(streams ? 1 : 0, static_cast<std::size_t>(16 * (1 + (i * 53) % 300)));
        cca::Engine        fresh;
        const std::int64_t made = cca::cuda::StreamedUploadsMade();
        RandomCase(i % 2 == 0 ? fresh : engine, 850000 + seed + static_cast<std::uint32_t>(i), streamed, false, true);
        if (streams && cca::cuda::StreamedUploadsMade() == made)
        {
          ++streamed.failed;
          std::cout << "FAIL streamed seed=" << 850000 + seed + static_cast<std::uint32_t>(i)
                    << ": the mask was not streamed" << std::endl;
        }
      }
      cca::cuda::SetStreamedUploads(0, 0);
      std::cout << name << " streamed uploads: " << streamed.passed << " passed, " << streamed.failed << " failed ("
                << cca::cuda::StreamedUploadsMade() - streamedBefore << " uploads streamed)" << std::endl;
    }

    // Random cases with one of the device's defaults turned off for them
    // (set(false), then set(true)), counted in tally under label.
    const auto withDefaultOff = [&](void (*set)(bool), std::uint32_t seedBase, Tally & tally, const char * label) {
      set(false);
      const int offCases = quick ? (isDefault ? 10 : 2) : (isDefault ? 120 : 20);
      for (int i = 0; i < offCases; ++i)
      {
        RandomCase(engine, seedBase + seed + static_cast<std::uint32_t>(i), tally);
      }
      set(true);
      std::cout << name << " " << label << ": " << tally.passed << " passed, " << tally.failed << " failed"
                << std::endl;
    };
    // Every other check launches the kernels as programmatic dependent
    // launches where the GPU has them (cuda/DependentLaunch.cuh); these the
    // ordinary way, as older GPUs and callers' streams get them.
    withDefaultOff(cca::cuda::SetDependentLaunches, 900000, ordinary, "ordinary launches");
    // Every other check queues the label image and the stored pairs' count
    // on a second stream beside the sort into component order
    // (cuda/HostSequence.cuh's SideWork); these keep every kernel on one.
    withDefaultOff(cca::cuda::SetSideStream, 1700000, oneStream, "one stream");
    // Every other check gives CUB 32-bit counts; these the 64-bit ones that
    // only counts from 2^31 on get otherwise.
    withDefaultOff(cca::cuda::SetNarrowCubCounts, 1800000, wideCounts, "64-bit CUB counts");

    CompactionChecks(quick, seed, compaction);
    std::cout << name << " feature compactions: " << compaction.passed << " passed, " << compaction.failed << " failed"
              << std::endl;

    Tally blocks;
    if (isDefault)
    {
      BlockLabelingChecks(engine, quick, seed, blocks);
      std::cout << name << " block labeling: " << blocks.passed << " passed, " << blocks.failed << " failed"
                << std::endl;
    }

    Tally strips;
    if (isDefault)
    {
      StripLabelingChecks(engine, quick, seed, strips);
      std::cout << name << " strip labeling: " << strips.passed << " passed, " << strips.failed << " failed"
                << std::endl;
    }

    Tally stripJoins;
    if (isDefault)
    {
      StripJoinChecks(engine, quick, seed, stripJoins);
      std::cout << name << " strip joins: " << stripJoins.passed << " passed, " << stripJoins.failed << " failed"
                << std::endl;
    }

    Tally sampling;
    if (isDefault)
    {
      SampledForegroundChecks(engine, quick, seed, sampling);
      std::cout << name << " sampled foreground: " << sampling.passed << " passed, " << sampling.failed << " failed"
                << std::endl;
    }

    Tally fanIns;
    if (isDefault)
    {
      LinkFanInChecks(engine, quick, seed, fanIns);
      std::cout << name << " union-find fan-ins: " << fanIns.passed << " passed, " << fanIns.failed << " failed"
                << std::endl;
    }

    Tally sharedLinks;
    if (isDefault)
    {
      SharedRowLinkChecks(engine, quick, seed, sharedLinks);
      std::cout << name << " shared row-block links: " << sharedLinks.passed << " passed, " << sharedLinks.failed
                << " failed" << std::endl;
    }

    Tally rowBits;
    if (isDefault)
    {
      RowBitLinkChecks(engine, quick, seed, rowBits);
      ByteRowBlockChecks(engine, quick, seed, rowBits);
      std::cout << name << " row-bit links and their row blocks in shared memory: " << rowBits.passed << " passed, "
                << rowBits.failed << " failed" << std::endl;
    }

    Tally voteOrders;
    if (isDefault)
    {
      VoteOrderChecks(engine, quick, seed, voteOrders);
      LargestApartChecks(engine, quick, seed, voteOrders);
      LargestSubtractedChecks(engine, quick, seed, voteOrders);
      std::cout << name << " vote orders: " << voteOrders.passed << " passed, " << voteOrders.failed << " failed"
                << std::endl;
    }

    Tally wideRows;
    if (isDefault)
    {
      WideRowChecks(engine, quick, seed, wideRows);
      LongRunPairChecks(engine, quick, seed, wideRows);
      std::cout << name << " wide rows and long-run pairs: " << wideRows.passed << " passed, " << wideRows.failed
                << " failed" << std::endl;
    }

    Tally climbing;
    {
      // Every numbering climbs from several runs a thread, as by default
      // only images of millions of runs do (NumberComponentsKernel), and
      // ranks the roots by FlagRootsKernel and CUB's scan, as by default
      // only images of more than 32,768 runs do.
      cca::cuda::SetNumberingClimbingRuns(0);
      cca::cuda::SetNumberingOneBlockRootWords(0);
      const int climbingCases = quick ? (isDefault ? 20 : 4) : (isDefault ? 200 : 30);
      for (int i = 0; i < climbingCases; ++i)
      {
        RandomCase(engine, 1100000 + seed + static_cast<std::uint32_t>(i), climbing);
      }
      cca::cuda::SetNumberingClimbingRuns(-1);
      cca::cuda::SetNumberingOneBlockRootWords(-1);
      std::cout << name << " numbering climbs: " << climbing.passed << " passed, " << climbing.failed << " failed"
                << std::endl;
    }

    if (large && isDefault)
    {
      LargeImage(engine, big);
      std::cout << name << " large image: " << big.passed << " passed, " << big.failed << " failed" << std::endl;
    }

    const int algorithmFailed = random.failed + edge.failed + repeat.failed + counting.failed + wide.failed +
                                big.failed + compaction.failed + slabs.failed + regions.failed + streamed.failed +
                                blocks.failed + strips.failed + stripJoins.failed + sampling.failed + climbing.failed +
                                ordinary.failed + fanIns.failed + sharedLinks.failed + rowBits.failed +
                                voteOrders.failed + wideRows.failed + oneStream.failed + wideCounts.failed;
    const int algorithmPassed = random.passed + edge.passed + repeat.passed + counting.passed + wide.passed +
                                big.passed + compaction.passed + slabs.passed + regions.passed + streamed.passed +
                                blocks.passed + strips.passed + stripJoins.passed + sampling.passed + climbing.passed +
                                ordinary.passed + fanIns.passed + sharedLinks.passed + rowBits.passed +
                                voteOrders.passed + wideRows.passed + oneStream.passed + wideCounts.passed;
    std::cout << name << ": " << algorithmPassed << " passed, " << algorithmFailed << " failed in "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - algorithmStart).count() << " s"
              << std::endl;
    failed += algorithmFailed;
    passed += algorithmPassed;
  }
  std::cout << "total: " << passed << " passed, " << failed << " failed in "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s" << std::endl;
  return failed == 0 ? 0 : 1;
}
