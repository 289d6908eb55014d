// The engine's optional groups against an independent brute-force reference:
// label images (each value one object, or its connected components), the
// intensity group of a feature image (sums, central moments, extremes with
// ITK's last-pixel rule, weighted moments, histogram and median) and the
// selection (size limits, the k largest, numbering by size). The reference
// labels pixels by flood fill or by value, computes every quantity pixel by
// pixel in long double (two passes: no cancellation) and bins values by a
// plain search of ITK's bin edges; it shares no code with the engine. Each
// failure prints the case (seed included).
//
// Usage: ccaFeatureGroupsTest <suite> <backend>
//   suite:   labels | intensity | selection | large | validation
//   backend: cpu | cuda   (cuda exits 77 when no device is usable)
// Built as ccaFeatureGroupsEmulationTest (CCA_TEST_EMULATED_CUDA), the
// backend `emulated` is the CUDA backend's host sequence with its kernels on
// emulated threads (test/gpu/emulation/), checked where no GPU is present.
#ifdef CCA_TEST_EMULATED_CUDA
#  include "EmulatedBackend.h"
#endif
#include "ccaFloodFillOracle.h"
#include "ccaTestMasks.h"

#include "IntensityRecord.h"

#include "cca/Engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace
{

using ccatest::Mask;
using L = long double;

constexpr int SkipReturnCode = 77;
int           g_Failures = 0;
int           g_Cases = 0;

/** The backend under test: the engine, or the emulated CUDA host sequence. */
class Runner
{
public:
  explicit Runner(bool emulated)
    : m_Emulated(emulated)
  {}

  void
  Run(const cca::ImageView & image, const cca::Options & options, cca::Result & result)
  {
#ifdef CCA_TEST_EMULATED_CUDA
    if (m_Emulated)
    {
      // Every other run: two resident blocks (grid-stride loops and the
      // block-shared intensity record over several runs) and slabs of one
      // row (the run counting of label images slab by slab); every third
      // run: 64-bit unit indices.
      const bool small = (m_Runs % 2) != 0;
      m_Emulator.device.SetResidentBlocks(small ? 2 : 1024);
      m_Emulator.sequence.SetSlabBytes(small ? 1 : 0);
      m_Emulator.sequence.Paths().SetForceWideIndex(m_Runs % 3 == 0); // 64-bit unit indices
      ++m_Runs;
      cca::ValidateInput(image, options); // the engine's checks before the sequence
      m_Emulator.Run(image, options, result);
      return;
    }
#endif
    m_Engine.Run(image, options, result);
  }

  bool
  Emulated() const
  {
    return m_Emulated;
  }

private:
  bool        m_Emulated;
  int         m_Runs = 0;
  cca::Engine m_Engine;
#ifdef CCA_TEST_EMULATED_CUDA
  emulation::Backend m_Emulator;
#endif
};

/** Set by main: the emulated CUDA backend instead of the engine's. */
bool g_Emulated = false;

// ---- images ------------------------------------------------------------------

/** A typed image: values held as int64 (integer types) or double (reals). */
struct TypedImage
{
  cca::PixelType             type = cca::PixelType::UInt8;
  std::vector<unsigned char> bytes;

  template <class T>
  const T *
  As() const
  {
    return reinterpret_cast<const T *>(bytes.data());
  }
  cca::ImageView
  View(const Mask & shape) const
  {
    cca::ImageView v;
    v.data = bytes.data();
    v.pixelType = type;
    v.dimension = shape.dimension;
    for (int i = 0; i < 3; ++i)
    {
      v.size[i] = shape.size[i];
    }
    return v;
  }
};

template <class T>
TypedImage
MakeTyped(cca::PixelType type, const std::vector<T> & values)
{
  TypedImage image;
  image.type = type;
  image.bytes.resize(values.size() * sizeof(T));
  std::memcpy(image.bytes.data(), values.data(), image.bytes.size());
  return image;
}

/** Calls f(T{}) with the C++ type of a pixel type. */
template <class F>
void
WithType(cca::PixelType type, F && f)
{
  switch (type)
  {
    case cca::PixelType::UInt8:
      return f(std::uint8_t{});
    case cca::PixelType::Int8:
      return f(std::int8_t{});
    case cca::PixelType::UInt16:
      return f(std::uint16_t{});
    case cca::PixelType::Int16:
      return f(std::int16_t{});
    case cca::PixelType::UInt32:
      return f(std::uint32_t{});
    case cca::PixelType::Int32:
      return f(std::int32_t{});
    case cca::PixelType::UInt64:
      return f(std::uint64_t{});
    case cca::PixelType::Int64:
      return f(std::int64_t{});
    case cca::PixelType::Float32:
      return f(float{});
    case cca::PixelType::Float64:
      return f(double{});
  }
}

/** ITK's starting extremes of the type (NumericTraits max() and
 *  NonpositiveMin()), as long double. */
void
StartingExtremes(cca::PixelType type, L & maximum, L & nonpositiveMinimum)
{
  WithType(type, [&](auto zero) {
    using T = decltype(zero);
    maximum = static_cast<L>(std::numeric_limits<T>::max());
    nonpositiveMinimum =
      static_cast<L>(std::is_integral<T>::value ? std::numeric_limits<T>::lowest() : -std::numeric_limits<T>::max());
  });
}

/** The pixel value as long double (exact for every type but the largest 64-bit ones). */
L
ValueAt(const TypedImage & image, std::int64_t p)
{
  L v = 0;
  WithType(image.type, [&](auto zero) { v = static_cast<L>(image.As<decltype(zero)>()[p]); });
  return v;
}

/** The pixel's label value as the engine reports it (int64; uint64 keeps its bits). */
std::int64_t
LabelAt(const TypedImage & image, std::int64_t p)
{
  std::int64_t v = 0;
  WithType(image.type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_integral<T>::value)
    {
      v = static_cast<std::int64_t>(image.As<T>()[p]);
    }
  });
  return v;
}

/** Order of label values in their type (unsigned types above 2^63 included). */
bool
LabelLess(cca::PixelType type, std::int64_t a, std::int64_t b)
{
  if (type == cca::PixelType::UInt64)
  {
    return static_cast<std::uint64_t>(a) < static_cast<std::uint64_t>(b);
  }
  return a < b;
}

/** A label image: blocks of granularity g of values drawn from `palette`. */
template <class T>
TypedImage
RandomLabels(const Mask &                      shape,
             cca::PixelType                    type,
             const std::vector<std::int64_t> & palette,
             int                               g,
             std::uint32_t                     seed)
{
  std::vector<T> values(static_cast<std::size_t>(shape.NumberOfPixels()));
  for (std::int64_t z = 0; z < shape.size[2]; ++z)
  {
    for (std::int64_t y = 0; y < shape.size[1]; ++y)
    {
      for (std::int64_t x = 0; x < shape.size[0]; ++x)
      {
        // One draw per block: a hash (splitmix64) of the seed and the block coordinates.
        std::uint64_t h =
          seed + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(1 + x / g + 1000 * (y / g) + 1000000 * (z / g));
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
        h ^= h >> 31;
        const std::int64_t v = palette[h % palette.size()];
        values[static_cast<std::size_t>(shape.Offset(x, y, z))] = static_cast<T>(v);
      }
    }
  }
  return MakeTyped(type, values);
}

TypedImage
RandomLabelImage(const Mask &                      shape,
                 cca::PixelType                    type,
                 const std::vector<std::int64_t> & palette,
                 int                               g,
                 std::uint32_t                     seed)
{
  TypedImage image;
  WithType(type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_integral<T>::value)
    {
      image = RandomLabels<T>(shape, type, palette, g, seed);
    }
  });
  return image;
}

/** A feature image: values in [low, high] (integers) or uniform reals there. */
TypedImage
RandomFeatureImage(const Mask & shape, cca::PixelType type, double low, double high, std::uint32_t seed)
{
  std::mt19937_64 rng(seed);
  TypedImage      image;
  WithType(type, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> values(static_cast<std::size_t>(shape.NumberOfPixels()));
    for (T & v : values)
    {
      if constexpr (std::is_integral<T>::value)
      {
        using Wide = std::conditional_t<std::is_signed<T>::value, std::int64_t, std::uint64_t>;
        std::uniform_int_distribution<Wide> d(static_cast<Wide>(low), static_cast<Wide>(high));
        v = static_cast<T>(d(rng));
      }
      else
      {
        std::uniform_real_distribution<double> d(low, high);
        v = static_cast<T>(d(rng));
      }
    }
    image = MakeTyped(type, values);
  });
  return image;
}

// ---- the reference ---------------------------------------------------------------

struct Reference
{
  ccatest::OracleResult     objects; ///< labels, features, runs of the kept objects, final numbering
  std::vector<std::int64_t> labelValues;
  std::vector<std::int64_t> sourceNumbers;
  std::int64_t              objectsFound = 0;
};

/** Per pixel 1..N: flood fill of the foreground joining neighbours the
 *  predicate accepts, numbered in raster order of first pixels. */
template <class Joins>
std::int64_t
FloodFillLabels(const Mask &                shape,
                const std::vector<bool> &   foreground,
                bool                        full,
                Joins &&                    joins,
                std::vector<std::int64_t> & labels)
{
  const auto steps = ccatest::NeighbourSteps(shape.dimension, full);
  labels.assign(static_cast<std::size_t>(shape.NumberOfPixels()), 0);
  std::int64_t              count = 0;
  std::vector<std::int64_t> queue;
  for (std::int64_t start = 0; start < shape.NumberOfPixels(); ++start)
  {
    if (!foreground[start] || labels[start] != 0)
    {
      continue;
    }
    labels[start] = ++count;
    queue.assign(1, start);
    for (std::size_t head = 0; head < queue.size(); ++head)
    {
      const std::int64_t p = queue[head];
      const std::int64_t x = p % shape.size[0];
      const std::int64_t y = (p / shape.size[0]) % shape.size[1];
      const std::int64_t z = p / (shape.size[0] * shape.size[1]);
      for (const auto & s : steps)
      {
        const std::int64_t qx = x + s[0], qy = y + s[1], qz = z + s[2];
        if (qx < 0 || qy < 0 || qz < 0 || qx >= shape.size[0] || qy >= shape.size[1] || qz >= shape.size[2])
        {
          continue;
        }
        const std::int64_t q = shape.Offset(qx, qy, qz);
        if (foreground[q] && labels[q] == 0 && joins(p, q))
        {
          labels[q] = count;
          queue.push_back(q);
        }
      }
    }
  }
  return count;
}

/** The selection's rule, written out: sizes in [min, max], then by size
 *  (ties by number) for keepLargest and orderBySize. */
std::vector<std::int64_t>
ReferenceSelection(const std::vector<std::int64_t> & sizes, const cca::Selection & s)
{
  std::vector<std::int64_t> kept;
  for (std::size_t k = 0; k < sizes.size(); ++k)
  {
    if (sizes[k] >= s.minimumPixels && sizes[k] <= s.maximumPixels)
    {
      kept.push_back(static_cast<std::int64_t>(k));
    }
  }
  if (s.keepLargest > 0 || s.orderBySize)
  {
    std::sort(kept.begin(), kept.end(), [&](std::int64_t a, std::int64_t b) {
      return sizes[a] != sizes[b] ? sizes[a] > sizes[b] : a < b;
    });
    if (s.keepLargest > 0 && static_cast<std::int64_t>(kept.size()) > s.keepLargest)
    {
      kept.resize(static_cast<std::size_t>(s.keepLargest));
    }
    if (!s.orderBySize)
    {
      std::sort(kept.begin(), kept.end());
    }
  }
  return kept;
}

Reference
MakeReference(const Mask & shape, const TypedImage & image, const cca::Options & options)
{
  const std::int64_t n = shape.NumberOfPixels();
  std::vector<bool>  foreground(static_cast<std::size_t>(n));
  for (std::int64_t p = 0; p < n; ++p)
  {
    const std::int64_t v = LabelAt(image, p);
    // The engine converts foregroundValue to the pixel type first.
    std::int64_t reference = 0;
    WithType(image.type, [&](auto zero) {
      using T = decltype(zero);
      reference = static_cast<std::int64_t>(static_cast<T>(options.foregroundValue));
    });
    switch (options.foregroundRule)
    {
      case cca::ForegroundRule::EqualTo:
        foreground[p] = v == reference;
        break;
      case cca::ForegroundRule::NotEqualTo:
        foreground[p] = v != reference;
        break;
      case cca::ForegroundRule::All:
        foreground[p] = true;
        break;
    }
  }
  Reference                 r;
  std::vector<std::int64_t> labels;
  std::int64_t              count = 0;
  std::vector<std::int64_t> valueOf; // per object (0-based)
  const bool                full = options.connectivity == cca::Connectivity::Full;
  if (options.objects == cca::Objects::LabelValues)
  {
    std::vector<std::int64_t> values;
    for (std::int64_t p = 0; p < n; ++p)
    {
      if (foreground[p])
      {
        values.push_back(LabelAt(image, p));
      }
    }
    std::sort(
      values.begin(), values.end(), [&](std::int64_t a, std::int64_t b) { return LabelLess(image.type, a, b); });
    values.erase(std::unique(values.begin(), values.end()), values.end());
    labels.assign(static_cast<std::size_t>(n), 0);
    for (std::int64_t p = 0; p < n; ++p)
    {
      if (foreground[p])
      {
        const auto it =
          std::lower_bound(values.begin(), values.end(), LabelAt(image, p), [&](std::int64_t a, std::int64_t b) {
            return LabelLess(image.type, a, b);
          });
        labels[p] = (it - values.begin()) + 1;
      }
    }
    count = static_cast<std::int64_t>(values.size());
    valueOf = values;
  }
  else
  {
    const bool byValue = options.objects == cca::Objects::LabelValueComponents;
    count = FloodFillLabels(
      shape,
      foreground,
      full,
      [&](std::int64_t p, std::int64_t q) { return !byValue || LabelAt(image, p) == LabelAt(image, q); },
      labels);
    valueOf.assign(static_cast<std::size_t>(count), 0);
    for (std::int64_t p = 0; p < n; ++p)
    {
      if (labels[p] != 0)
      {
        valueOf[labels[p] - 1] = LabelAt(image, p);
      }
    }
  }
  r.objectsFound = count;

  // The selection renumbers the labels before the features are taken.
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(count), 0);
  for (std::int64_t p = 0; p < n; ++p)
  {
    if (labels[p] != 0)
    {
      ++sizes[labels[p] - 1];
    }
  }
  std::vector<std::int64_t> order(static_cast<std::size_t>(count));
  std::iota(order.begin(), order.end(), std::int64_t{ 0 });
  if (options.selection.Active())
  {
    order = ReferenceSelection(sizes, options.selection);
    for (const std::int64_t k : order)
    {
      r.sourceNumbers.push_back(k + 1);
    }
  }
  std::vector<std::int64_t> newLabel(static_cast<std::size_t>(count), 0);
  for (std::size_t k = 0; k < order.size(); ++k)
  {
    newLabel[order[k]] = static_cast<std::int64_t>(k) + 1;
  }
  r.objects.labels.assign(static_cast<std::size_t>(n), 0);
  for (std::int64_t p = 0; p < n; ++p)
  {
    r.objects.labels[p] = labels[p] == 0 ? 0 : newLabel[labels[p] - 1];
  }
  r.objects.componentCount = static_cast<std::int64_t>(order.size());
  if (options.objects != cca::Objects::ForegroundComponents)
  {
    for (const std::int64_t k : order)
    {
      r.labelValues.push_back(valueOf[k]);
    }
  }
  ccatest::FeaturesOfLabels(shape, r.objects);
  return r;
}

/** ITK's bin edges (Histogram::Initialize), searched plainly: the last bin
 *  whose lower edge is at or below the value. -1: clipped. */
struct PlainBinning
{
  std::vector<double> low;
  std::vector<double> high;
  bool                clip = false;

  PlainBinning(std::uint32_t bins, double lower, double upper, bool clipAtEnds)
    : clip(clipAtEnds)
  {
    const float interval = (static_cast<float>(upper) - static_cast<float>(lower)) / static_cast<float>(bins);
    for (std::uint32_t j = 0; j < bins; ++j)
    {
      low.push_back(lower + static_cast<double>(static_cast<float>(j) * interval));
      high.push_back(j + 1 < bins ? lower + static_cast<double>(static_cast<float>(j + 1) * interval) : upper);
    }
  }
  std::int64_t
  Bin(double v) const
  {
    if (std::isnan(v))
    {
      // Histogram::GetIndex: every comparison false, the search stops at
      // its first middle.
      return static_cast<std::int64_t>(low.size()) / 2;
    }
    if (v < low[0])
    {
      return clip ? -1 : 0;
    }
    if (v >= high.back())
    {
      return !clip || v == high.back() ? static_cast<std::int64_t>(high.size()) - 1 : -1;
    }
    std::int64_t b = 0;
    while (b + 1 < static_cast<std::int64_t>(low.size()) && low[b + 1] <= v)
    {
      ++b;
    }
    return b;
  }
  double
  Center(std::int64_t b) const
  {
    return (low[b] + high[b]) / 2.0;
  }
};

// ---- comparison ------------------------------------------------------------------

class Reporter
{
public:
  explicit Reporter(std::string context)
    : m_Context(std::move(context))
  {
    ++g_Cases;
  }
  void
  Fail(const std::string & message)
  {
    if (m_Count == 0)
    {
      ++g_Failures;
      std::cerr << "FAIL " << m_Context << "\n";
    }
    if (m_Count < 12)
    {
      std::cerr << "   " << message << "\n";
    }
    ++m_Count;
  }
  template <class A, class B>
  void
  Equal(const A & got, const B & expected, const std::string & what)
  {
    if (!(got == expected))
    {
      std::ostringstream s;
      s << what << ": got " << got << ", expected " << expected;
      Fail(s.str());
    }
  }
  /** Within tolerance, or both NaN (a NaN feature value's sums). */
  void
  Near(L got, L expected, L tolerance, const std::string & what)
  {
    if (std::isnan(expected) && std::isnan(got))
    {
      return;
    }
    if (!(std::abs(got - expected) <= tolerance))
    {
      std::ostringstream s;
      s.precision(18);
      s << what << ": got " << got << ", expected " << expected << " (tolerance " << tolerance << ")";
      Fail(s.str());
    }
  }
  bool
  Failed() const
  {
    return m_Count > 0;
  }

private:
  std::string m_Context;
  int         m_Count = 0;
};

void
CompareShapes(Reporter & rep, const Reference & ref, const cca::Result & got, const std::vector<std::uint64_t> & labels)
{
  const auto & o = ref.objects;
  rep.Equal(got.componentCount, o.componentCount, "componentCount");
  rep.Equal(got.objectsFound, ref.objectsFound, "objectsFound");
  if (rep.Failed())
  {
    return;
  }
  for (std::int64_t k = 0; k < o.componentCount; ++k)
  {
    if (std::memcmp(&got.features[k], &o.features[k], sizeof(cca::ComponentFeatures)) != 0)
    {
      rep.Fail("features of object " + std::to_string(k + 1) + " differ");
      break;
    }
  }
  rep.Equal(got.labelValues.size(), ref.labelValues.size(), "labelValues size");
  for (std::size_t k = 0; k < ref.labelValues.size() && k < got.labelValues.size(); ++k)
  {
    rep.Equal(got.labelValues[k], ref.labelValues[k], "labelValues[" + std::to_string(k) + "]");
  }
  rep.Equal(got.sourceNumbers.size(), ref.sourceNumbers.size(), "sourceNumbers size");
  for (std::size_t k = 0; k < ref.sourceNumbers.size() && k < got.sourceNumbers.size(); ++k)
  {
    rep.Equal(got.sourceNumbers[k], ref.sourceNumbers[k], "sourceNumbers[" + std::to_string(k) + "]");
  }
  if (got.runOffsets.size() != static_cast<std::size_t>(o.componentCount + 1))
  {
    rep.Fail("runOffsets size " + std::to_string(got.runOffsets.size()));
    return;
  }
  for (std::int64_t k = 0; k < o.componentCount; ++k)
  {
    const auto &       expected = o.runs[k];
    const std::int64_t count = got.runOffsets[k + 1] - got.runOffsets[k];
    bool               same = count == static_cast<std::int64_t>(expected.size());
    for (std::int64_t i = 0; same && i < count; ++i)
    {
      const cca::Run & a = got.runs[got.runOffsets[k] + i];
      const cca::Run & b = expected[i];
      same = a.x == b.x && a.y == b.y && a.z == b.z && a.length == b.length;
    }
    if (!same)
    {
      rep.Fail("runs of object " + std::to_string(k + 1) + " differ");
      break;
    }
  }
  for (std::size_t p = 0; p < labels.size(); ++p)
  {
    if (labels[p] != static_cast<std::uint64_t>(o.labels[p]))
    {
      rep.Fail("label image at " + std::to_string(p) + ": got " + std::to_string(labels[p]) + ", expected " +
               std::to_string(o.labels[p]));
      break;
    }
  }
}

/** Every ObjectIntensity field, the histograms and the medians against the
 *  pixels. Exact types: the sums and extremes exactly, the derived
 *  quantities to 1e-12 of their own scale; reals: to the rounding of double
 *  sums (64 epsilon of the sums of magnitudes). */
void
CompareIntensity(Reporter &           rep,
                 const Mask &         shape,
                 const TypedImage &   feature,
                 const cca::Options & options,
                 const Reference &    ref,
                 const cca::Result &  got)
{
  const auto &       o = ref.objects;
  const std::int64_t K = o.componentCount;
  if (got.intensity.size() != static_cast<std::size_t>(K))
  {
    rep.Fail("intensity has " + std::to_string(got.intensity.size()) + " entries for " + std::to_string(K) +
             " objects");
    return;
  }
  const bool exact = feature.type != cca::PixelType::Float32 && feature.type != cca::PixelType::Float64 &&
                     feature.type != cca::PixelType::Int64 && feature.type != cca::PixelType::UInt64;
  const L                       eps = std::numeric_limits<double>::epsilon();
  const cca::HistogramOptions & h = options.intensity.histogram;
  double                        lower = h.lower;
  double                        upper = h.upper;
  L                             typeMaximum = 0;
  L                             typeNonpositiveMinimum = 0;
  StartingExtremes(feature.type, typeMaximum, typeNonpositiveMinimum);
  if (h.bins > 0 && h.rangeOfFeatureImage)
  {
    // MinimumMaximumImageCalculator: from the type's extremes, NaN never
    // compares.
    lower = static_cast<double>(typeMaximum);
    upper = static_cast<double>(typeNonpositiveMinimum);
    for (std::int64_t p = 0; p < shape.NumberOfPixels(); ++p)
    {
      const double v = static_cast<double>(ValueAt(feature, p));
      lower = v < lower ? v : lower;
      upper = v > upper ? v : upper;
    }
  }
  if (h.bins > 0)
  {
    rep.Equal(got.histogramLower, lower, "histogramLower");
    rep.Equal(got.histogramUpper, upper, "histogramUpper");
  }
  const PlainBinning binning(std::max<std::uint32_t>(h.bins, 1), lower, upper, h.clipBinsAtEnds);

  struct Acc
  {
    std::int64_t              n = 0;
    L                         sum = 0, absSum = 0, min = 0, max = 0;
    std::int64_t              minIndex = -1, maxIndex = -1;
    L                         p[3] = { 0, 0, 0 };
    std::vector<L>            values;
    std::vector<std::int64_t> pixels;
  };
  std::vector<Acc> acc(static_cast<std::size_t>(K));
  for (std::int64_t p = 0; p < shape.NumberOfPixels(); ++p)
  {
    const std::int64_t label = o.labels[p];
    if (label == 0)
    {
      continue;
    }
    Acc &   a = acc[label - 1];
    const L v = ValueAt(feature, p);
    if (a.n == 0)
    {
      // StatisticsLabelMapFilter's start: index 0 (of a region at 0).
      a.min = typeMaximum;
      a.max = typeNonpositiveMinimum;
      a.minIndex = 0;
      a.maxIndex = 0;
    }
    if (v <= a.min) // false for a NaN, as ITK's "v <= min"
    {
      a.min = v;
      a.minIndex = p;
    }
    if (v >= a.max)
    {
      a.max = v;
      a.maxIndex = p;
    }
    ++a.n;
    a.sum += v;
    a.absSum += std::abs(v);
    a.values.push_back(v);
    a.pixels.push_back(p);
  }
  std::int64_t histogramEntry = 0;
  for (std::int64_t k = 0; k < K && !rep.Failed(); ++k)
  {
    const Acc &                  a = acc[k];
    const cca::ObjectIntensity & g = got.intensity[k];
    const std::string            what = "object " + std::to_string(k + 1) + " ";
    rep.Equal(g.minimum, static_cast<double>(a.min), what + "minimum");
    rep.Equal(g.maximum, static_cast<double>(a.max), what + "maximum");
    const std::int64_t nx = shape.size[0], ny = shape.size[1];
    auto               coordinates = [&](std::int64_t p) {
      return std::to_string(p % nx) + "," + std::to_string((p / nx) % ny) + "," + std::to_string(p / (nx * ny));
    };
    rep.Equal(std::to_string(g.minimumIndex[0]) + "," + std::to_string(g.minimumIndex[1]) + "," +
                std::to_string(g.minimumIndex[2]),
              coordinates(a.minIndex),
              what + "minimumIndex");
    rep.Equal(std::to_string(g.maximumIndex[0]) + "," + std::to_string(g.maximumIndex[1]) + "," +
                std::to_string(g.maximumIndex[2]),
              coordinates(a.maxIndex),
              what + "maximumIndex");
    if (exact)
    {
      rep.Equal(g.sum, static_cast<double>(a.sum), what + "sum");
    }
    else
    {
      // Sums in double, in any order (GPU atomics): recursive summation of
      // n terms errs by at most (n - 1) eps/2 sum|v| (Higham 2002, 4.2).
      rep.Near(g.sum, a.sum, (64 + a.n) * eps * a.absSum, what + "sum");
    }
    // Central moments, two passes around an integer near the mean, which
    // keeps every difference exact for the integer types.
    const L shift = std::nearbyint(a.sum / a.n);
    L       shiftedSum = 0;
    for (const L v : a.values)
    {
      shiftedSum += v - shift;
    }
    const L mean = shiftedSum / a.n;
    for (int power = 2; power <= 4; ++power)
    {
      L central = 0, magnitude = 0, raw = 0;
      for (const L v : a.values)
      {
        central += std::pow((v - shift) - mean, power);
        magnitude += std::pow(std::abs((v - shift) - mean), power);
        raw += std::pow(std::abs(v), power);
      }
      const L tolerance = exact ? 1e-12L * magnitude + 1e-300L : (256 + 2 * a.n) * eps * raw;
      rep.Near(
        g.centralMoments[power - 2], central, tolerance, what + "centralMoments[" + std::to_string(power - 2) + "]");
    }
    if (options.intensity.weightedMoments && a.sum != 0)
    {
      L c[3] = { 0, 0, 0 };
      L scale = 0;
      for (std::size_t i = 0; i < a.values.size(); ++i)
      {
        const std::int64_t p = a.pixels[i];
        const L q[3] = { static_cast<L>(p % nx), static_cast<L>((p / nx) % ny), static_cast<L>(p / (nx * ny)) };
        for (int d = 0; d < 3; ++d)
        {
          c[d] += a.values[i] * q[d];
        }
        scale += std::abs(a.values[i]) * (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + 1);
      }
      for (L & cd : c)
      {
        cd /= a.sum;
      }
      L         cov[6] = { 0, 0, 0, 0, 0, 0 };
      const int pairs[6][2] = { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 0, 1 }, { 0, 2 }, { 1, 2 } };
      for (std::size_t i = 0; i < a.values.size(); ++i)
      {
        const std::int64_t p = a.pixels[i];
        const L            q[3] = { static_cast<L>(p % nx) - c[0],
                                    static_cast<L>((p / nx) % ny) - c[1],
                                    static_cast<L>(p / (nx * ny)) - c[2] };
        for (int e = 0; e < 6; ++e)
        {
          cov[e] += a.values[i] * q[pairs[e][0]] * q[pairs[e][1]];
        }
      }
      // Errors scale with the magnitudes summed over |sum(v)| (cancellation of signed values).
      const L relative = (exact ? 1e-13L : (256 + 2 * a.n) * eps) * scale / std::abs(a.sum);
      for (int d = 0; d < 3; ++d)
      {
        rep.Near(g.weightedCentroid[d], c[d], relative, what + "weightedCentroid[" + std::to_string(d) + "]");
      }
      for (int e = 0; e < 6; ++e)
      {
        rep.Near(g.weightedCovariance[e],
                 cov[e] / a.sum,
                 relative * (1 + scale / std::abs(a.sum)),
                 what + "weightedCovariance[" + std::to_string(e) + "]");
      }
    }
    if (h.bins > 0)
    {
      std::map<std::int64_t, std::int64_t> bins;
      for (const L v : a.values)
      {
        const std::int64_t b = binning.Bin(static_cast<double>(v));
        if (b >= 0)
        {
          ++bins[b];
        }
      }
      std::int64_t total = 0;
      for (const auto & e : bins)
      {
        total += e.second;
      }
      if (h.median)
      {
        double       median = 0;
        std::int64_t cumulative = 0;
        for (auto it = bins.begin(); it != bins.end(); ++it)
        {
          cumulative += it->second;
          if (cumulative >= (total + 1) / 2)
          {
            median = binning.Center(it->first);
            auto next = std::next(it);
            if (a.n % 2 == 0 && cumulative == total / 2 && next != bins.end())
            {
              median = (median + binning.Center(next->first)) * 0.5;
            }
            break;
          }
        }
        rep.Equal(g.median, median, what + "median");
      }
      if (h.keep)
      {
        const std::int64_t first = got.histogramOffsets[k];
        const std::int64_t entries = got.histogramOffsets[k + 1] - first;
        rep.Equal(first, histogramEntry, what + "histogram offset");
        rep.Equal(entries, static_cast<std::int64_t>(bins.size()), what + "histogram entries");
        std::int64_t e = first;
        for (const auto & bin : bins)
        {
          if (e >= first + entries)
          {
            break;
          }
          rep.Equal(static_cast<std::int64_t>(got.histogramBins[e]), bin.first, what + "histogram bin");
          rep.Equal(got.histogramCounts[e], bin.second, what + "histogram count");
          ++e;
        }
        histogramEntry += static_cast<std::int64_t>(bins.size());
      }
    }
  }
}

/** Runs the engine on the case and compares everything. */
void
RunCase(Runner &            engine,
        const std::string & name,
        const Mask &        shape,
        const TypedImage &  image,
        const TypedImage *  feature,
        cca::Options        options)
{
  Reporter                   rep(name + " objects=" + cca::ObjectsName(options.objects) +
               (options.connectivity == cca::Connectivity::Full ? " full" : " face") +
               " backend=" + (engine.Emulated() ? "emulated" : cca::BackendName(options.backend)) +
               (feature ? std::string(" feature=") + cca::PixelTypeName(feature->type) : ""));
  std::vector<std::uint64_t> labels(static_cast<std::size_t>(shape.NumberOfPixels()), 0x77);
  options.labelImageType = cca::LabelImageType::UInt64;
  options.labelImage = labels.data();
  options.computeRuns = true;
  if (feature != nullptr)
  {
    options.intensity.featureImage = feature->View(shape);
  }
  cca::Result result;
  try
  {
    engine.Run(image.View(shape), options, result);
  }
  catch (const std::exception & e)
  {
    rep.Fail(std::string("the engine threw: ") + e.what());
    return;
  }
  const Reference ref = MakeReference(shape, image, options);
  CompareShapes(rep, ref, result, labels);
  if (feature != nullptr && !rep.Failed())
  {
    CompareIntensity(rep, shape, *feature, options, ref, result);
  }
}

// ---- suites ----------------------------------------------------------------------

/** Small images of both dimensions: widths around 32, flat and deep. */
std::vector<Mask>
Shapes(std::uint32_t seed)
{
  std::vector<Mask>  shapes;
  const std::int64_t sizes[][4] = { { 2, 1, 1, 1 },   { 2, 37, 23, 1 }, { 2, 64, 9, 1 }, { 2, 1, 40, 1 },
                                    { 2, 70, 41, 1 }, { 3, 9, 7, 5 },   { 3, 33, 6, 4 }, { 3, 17, 13, 11 } };
  for (const auto & s : sizes)
  {
    shapes.push_back(ccatest::RandomMask(static_cast<int>(s[0]), s[1], s[2], s[3], 0.5, 1, seed++));
  }
  return shapes;
}

const std::vector<std::int64_t> &
PaletteFor(cca::PixelType type, int variant)
{
  static const std::vector<std::int64_t> small = { 0, 1, 2, 3 };
  static const std::vector<std::int64_t> sparseSigned = { 0, -7, 5, 300, -2000 };
  static const std::vector<std::int64_t> sparseWide = { 0, 7, 1000000, -4000000000LL, 1LL << 40 };
  static const std::vector<std::int64_t> sparseUnsigned64 = {
    0, 9, static_cast<std::int64_t>(0xfffffffffffffff0ULL), 1LL << 50
  };
  if (variant == 0)
  {
    return small;
  }
  switch (type)
  {
    case cca::PixelType::Int16:
    case cca::PixelType::Int32:
      return sparseSigned;
    case cca::PixelType::Int64:
      return sparseWide;
    case cca::PixelType::UInt64:
      return sparseUnsigned64;
    default:
      return small;
  }
}

void
LabelsSuite(cca::Backend backend)
{
  Runner               engine(g_Emulated);
  std::uint32_t        seed = 100;
  const cca::PixelType types[] = {
    cca::PixelType::UInt8, cca::PixelType::Int16, cca::PixelType::Int32, cca::PixelType::UInt64, cca::PixelType::Int64
  };
  int k = 0;
  for (const Mask & shape : Shapes(seed))
  {
    for (const cca::PixelType type : types)
    {
      for (int g : { 1, 3 })
      {
        const int         variant = (k++) % 2;
        const TypedImage  image = RandomLabelImage(shape, type, PaletteFor(type, variant), g, seed);
        const std::string name = shape.name + " labels " + cca::PixelTypeName(type) + " g=" + std::to_string(g) +
                                 " palette=" + std::to_string(variant) + " seed=" + std::to_string(seed);
        ++seed;
        for (cca::Objects objects :
             { cca::Objects::LabelValues, cca::Objects::LabelValueComponents, cca::Objects::ForegroundComponents })
        {
          for (cca::Connectivity connectivity : { cca::Connectivity::Face, cca::Connectivity::Full })
          {
            cca::Options options;
            options.backend = backend;
            options.objects = objects;
            options.connectivity = connectivity;
            options.foregroundRule = (k % 3 == 0) ? cca::ForegroundRule::All : cca::ForegroundRule::NotEqualTo;
            options.foregroundValue = 0;
            RunCase(engine,
                    name + (options.foregroundRule == cca::ForegroundRule::All ? " rule=all" : ""),
                    shape,
                    image,
                    nullptr,
                    options);
          }
        }
      }
    }
  }
}

void
IntensitySuite(cca::Backend backend)
{
  Runner        engine(g_Emulated);
  std::uint32_t seed = 2000;
  struct FeatureKind
  {
    cca::PixelType type;
    double         low;
    double         high;
  };
  const FeatureKind kinds[] = { { cca::PixelType::UInt8, 0, 255 },
                                { cca::PixelType::Int8, -128, 127 },
                                { cca::PixelType::Int16, -1024, 3071 },
                                { cca::PixelType::Int16, -3, 2 }, // ties everywhere
                                { cca::PixelType::UInt16, 60000, 65535 },
                                { cca::PixelType::Int32, -2147483647.0, 2147483647.0 },
                                { cca::PixelType::UInt32, 4294967000.0, 4294967295.0 },
                                { cca::PixelType::Int64, -1e12, 1e12 },
                                { cca::PixelType::UInt64, 0, 5 },
                                { cca::PixelType::Float32, -5, 20 },
                                { cca::PixelType::Float64, 1000, 1001 } };
  int               k = 0;
  for (const Mask & shape : Shapes(seed))
  {
    for (const FeatureKind & kind : kinds)
    {
      const TypedImage feature = RandomFeatureImage(shape, kind.type, kind.low, kind.high, seed);
      const TypedImage mask = MakeTyped(cca::PixelType::UInt8, shape.on);
      const TypedImage labels =
        RandomLabelImage(shape, cca::PixelType::Int16, PaletteFor(cca::PixelType::Int16, 1), 2, seed);
      const std::string name = shape.name + " feature range [" + std::to_string(kind.low) + ", " +
                               std::to_string(kind.high) + "] seed=" + std::to_string(seed);
      ++seed;
      cca::Options options;
      options.backend = backend;
      options.connectivity = (k % 2) ? cca::Connectivity::Full : cca::Connectivity::Face;
      options.intensity.weightedMoments = k % 5 != 4;
      options.intensity.histogram.bins = k % 4 == 0 ? 0 : (k % 4 == 1 ? 128 : (k % 4 == 2 ? 7 : 256));
      options.intensity.histogram.keep = k % 3 != 0 && options.intensity.histogram.bins > 0;
      options.intensity.histogram.median = true;
      if (k % 7 == 3 && options.intensity.histogram.bins > 0)
      {
        // A given range, clipped at its ends (LabelStatisticsImageFilter's histogram).
        options.intensity.histogram.rangeOfFeatureImage = false;
        options.intensity.histogram.lower = kind.low + (kind.high - kind.low) * 0.25;
        options.intensity.histogram.upper = kind.high - (kind.high - kind.low) * 0.25;
        options.intensity.histogram.clipBinsAtEnds = true;
      }
      ++k;
      RunCase(engine, name + " mask", shape, mask, &feature, options);
      cca::Options byValue = options;
      byValue.objects = k % 2 ? cca::Objects::LabelValues : cca::Objects::LabelValueComponents;
      RunCase(engine, name + " labels", shape, labels, &feature, byValue);
    }
  }
  // NaN feature values (a resampled image's "no data"): ITK's range and
  // extremes pass them over, its sums take them in, its histogram bins them
  // (PlainBinning). The first pixel is always one (the range once started
  // there); at the larger share some objects are NaN only (ITK's starting
  // extremes); the bit patterns include the NaNs whose keys are the
  // extremes' neutral ones (every payload bit set, either sign).
  for (const cca::PixelType type : { cca::PixelType::Float32, cca::PixelType::Float64 })
  {
    for (const double nanShare : { 0.02, 0.6 })
    {
      for (const Mask & shape : Shapes(seed))
      {
        TypedImage                  feature = RandomFeatureImage(shape, type, -5, 20, seed);
        std::mt19937_64             rng(seed + 1);
        std::bernoulli_distribution isNan(nanShare);
        int                         pattern = 0;
        WithType(type, [&](auto zero) {
          using T = decltype(zero);
          if constexpr (std::is_floating_point<T>::value)
          {
            using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
            constexpr Bits sign = Bits{ 1 } << (8 * sizeof(T) - 1);
            const Bits     patterns[] = { static_cast<Bits>(sign - 1), static_cast<Bits>(~Bits{ 0 }) };
            T *            values = reinterpret_cast<T *>(feature.bytes.data());
            for (std::int64_t p = 0; p < shape.NumberOfPixels(); ++p)
            {
              if (p == 0 || isNan(rng))
              {
                const int choice = pattern++ % 4;
                if (choice < 2)
                {
                  values[p] = choice == 0 ? std::numeric_limits<T>::quiet_NaN() : -std::numeric_limits<T>::quiet_NaN();
                }
                else
                {
                  std::memcpy(values + p, &patterns[choice - 2], sizeof(T));
                }
              }
            }
          }
        });
        const TypedImage mask = MakeTyped(cca::PixelType::UInt8, shape.on);
        const TypedImage labels =
          RandomLabelImage(shape, cca::PixelType::Int16, PaletteFor(cca::PixelType::Int16, 1), 2, seed);
        const std::string name = shape.name + " feature " + cca::PixelTypeName(type) + " with NaN (share " +
                                 std::to_string(nanShare) + ") seed=" + std::to_string(seed);
        ++seed;
        cca::Options options;
        options.backend = backend;
        options.connectivity = (k % 2) ? cca::Connectivity::Full : cca::Connectivity::Face;
        options.intensity.weightedMoments = true;
        options.intensity.histogram.bins = k % 3 == 0 ? 7 : 128;
        options.intensity.histogram.keep = true;
        options.intensity.histogram.median = true;
        if (k % 4 == 1)
        {
          options.intensity.histogram.rangeOfFeatureImage = false;
          options.intensity.histogram.lower = 0;
          options.intensity.histogram.upper = 10;
          options.intensity.histogram.clipBinsAtEnds = true;
        }
        ++k;
        RunCase(engine, name + " mask", shape, mask, &feature, options);
        cca::Options byValue = options;
        byValue.objects = k % 2 ? cca::Objects::LabelValues : cca::Objects::LabelValueComponents;
        RunCase(engine, name + " labels", shape, labels, &feature, byValue);
      }
    }
  }
  // Rows of one run longer than the stretches in which 8- and 16-bit values
  // are summed in native words (IntensityRecord.h's NativeSumPixels), with
  // values at their type's extremes.
  const Mask        rows = ccatest::ConstantMask(2, 3 * cca::detail::NativeSumPixels + 5, 2, 1, true);
  const FeatureKind wide[] = { { cca::PixelType::Int16, -32768, 32767 },
                               { cca::PixelType::UInt16, 0, 65535 },
                               { cca::PixelType::Int8, -128, 127 } };
  for (const FeatureKind & kind : wide)
  {
    const TypedImage feature = RandomFeatureImage(rows, kind.type, kind.low, kind.high, seed);
    cca::Options     options;
    options.backend = backend;
    RunCase(engine,
            rows.name + " long rows, feature range [" + std::to_string(kind.low) + ", " + std::to_string(kind.high) +
              "] seed=" + std::to_string(seed),
            rows,
            MakeTyped(cca::PixelType::UInt8, rows.on),
            &feature,
            options);
    ++seed;
  }
  // Objects at the bound of the narrow sums (IntensityRecord.h's
  // NarrowIntensitySums), every value at its type's most negative: with
  // 2^18 - 1 pixels of -32768 the sum of v^3 is -(2^63 - 2^45), the largest
  // a signed 64-bit word holds at that bound, added in low words only; with
  // 2^18 pixels it is -2^63 and goes word by word with carries. With 32-bit
  // values (three words) the sums of v and of the weighted moments are
  // narrow, the sum of v^2 is not (from 2 pixels on).
  struct BoundCase
  {
    cca::PixelType type;
    double         value;
  };
  const BoundCase bounds[] = { { cca::PixelType::Int16, -32768 }, { cca::PixelType::Int32, -2147483648.0 } };
  for (const BoundCase & b : bounds)
  {
    for (const bool missingPixel : { true, false })
    {
      Mask square = ccatest::ConstantMask(2, 512, 512, 1, true);
      if (missingPixel)
      {
        square.on[0] = 0;
        square.name += " but pixel 0";
      }
      const TypedImage feature = RandomFeatureImage(square, b.type, b.value, b.value, seed);
      cca::Options     options;
      options.backend = backend;
      RunCase(engine,
              square.name + " every value " + std::to_string(b.value) + " (" + cca::PixelTypeName(b.type) +
                ", narrow-sum bound)",
              square,
              MakeTyped(cca::PixelType::UInt8, square.on),
              &feature,
              options);
    }
  }
}

void
SelectionSuite(cca::Backend backend)
{
  Runner        engine(g_Emulated);
  std::uint32_t seed = 3000;
  int           k = 0;
  for (const Mask & shape : Shapes(seed))
  {
    const TypedImage mask = MakeTyped(cca::PixelType::UInt8, shape.on);
    const TypedImage labels =
      RandomLabelImage(shape, cca::PixelType::UInt16, PaletteFor(cca::PixelType::UInt16, 0), 2, seed);
    const TypedImage feature = RandomFeatureImage(shape, cca::PixelType::Int16, -100, 100, seed);
    ++seed;
    const cca::Selection selections[] = {
      { 2, INT64_MAX, 0, false }, { 0, 3, 0, false }, { 0, INT64_MAX, 3, false },
      { 0, INT64_MAX, 0, true },  { 2, 40, 5, true }, { 1000000, INT64_MAX, 0, true },
    };
    for (const cca::Selection & selection : selections)
    {
      cca::Options options;
      options.backend = backend;
      options.selection = selection;
      options.connectivity = (k % 2) ? cca::Connectivity::Full : cca::Connectivity::Face;
      options.intensity.histogram.bins = 16;
      options.intensity.histogram.keep = true;
      const std::string name = shape.name + " selection(min " + std::to_string(selection.minimumPixels) + ", max " +
                               std::to_string(selection.maximumPixels) + ", keep " +
                               std::to_string(selection.keepLargest) + ", by size " +
                               std::to_string(selection.orderBySize) + ")";
      RunCase(engine, name + " mask", shape, mask, (k % 3 == 0) ? nullptr : &feature, options);
      options.objects = k % 2 ? cca::Objects::LabelValues : cca::Objects::LabelValueComponents;
      RunCase(engine, name + " labels", shape, labels, &feature, options);
      ++k;
    }
  }
}

/** Images of a million pixels (the GPU's multi-block paths: a giant
 *  component near the percolation threshold in one block-shared intensity
 *  record, many blocks of votes, histogram keys and sorts). */
void
LargeSuite(cca::Backend backend)
{
  Runner engine(g_Emulated);
  struct LargeCase
  {
    int               dimension;
    std::int64_t      size[3];
    double            density;
    cca::Objects      objects;
    cca::PixelType    labelType;
    cca::PixelType    featureType;
    double            low, high;
    cca::Connectivity connectivity;
    cca::Selection    selection;
  };
  const cca::Selection all{};
  const LargeCase      cases[] = {
         { 2,
           { 1200, 1000, 1 },
           0.6,
           cca::Objects::ForegroundComponents,
           cca::PixelType::UInt8,
           cca::PixelType::Int16,
           -1024,
           3071,
           cca::Connectivity::Face,
           all },
         { 2,
           { 1100, 900, 1 },
           0.45,
           cca::Objects::ForegroundComponents,
           cca::PixelType::UInt8,
           cca::PixelType::Float32,
           -5,
           20,
           cca::Connectivity::Full,
           { 3, INT64_MAX, 0, true } },
         { 3,
           { 100, 90, 80 },
           0.3,
           cca::Objects::LabelValues,
           cca::PixelType::Int32,
           cca::PixelType::UInt16,
           0,
           65535,
           cca::Connectivity::Face,
           { 0, INT64_MAX, 3, true } },
         { 3,
           { 96, 64, 70 },
           0.25,
           cca::Objects::LabelValueComponents,
           cca::PixelType::Int64,
           cca::PixelType::Float64,
           1000,
           1001,
           cca::Connectivity::Full,
           { 3, INT64_MAX, 0, false } },
         { 2,
           { 1024, 1024, 1 },
           0.5,
           cca::Objects::LabelValues,
           cca::PixelType::UInt64,
           cca::PixelType::Int32,
           -2147483647.0,
           2147483647.0,
           cca::Connectivity::Face,
           { 0, INT64_MAX, 0, true } },
  };
  std::uint32_t seed = 4000;
  for (const LargeCase & c : cases)
  {
    const Mask       shape = ccatest::RandomMask(c.dimension, c.size[0], c.size[1], c.size[2], c.density, 1, seed);
    const TypedImage image = c.objects == cca::Objects::ForegroundComponents
                               ? MakeTyped(cca::PixelType::UInt8, shape.on)
                               : RandomLabelImage(shape, c.labelType, PaletteFor(c.labelType, 1), 4, seed);
    const TypedImage feature = RandomFeatureImage(shape, c.featureType, c.low, c.high, seed);
    cca::Options     options;
    options.backend = backend;
    options.objects = c.objects;
    options.connectivity = c.connectivity;
    options.selection = c.selection;
    options.intensity.histogram = cca::StatisticsLabelMapHistogram(c.featureType);
    options.intensity.histogram.keep = true;
    RunCase(engine,
            shape.name + " large " + cca::PixelTypeName(c.labelType) + " seed=" + std::to_string(seed),
            shape,
            image,
            &feature,
            options);
    ++seed;
  }
}

void
ExpectThrow(const std::string & what, const std::function<void()> & f)
{
  ++g_Cases;
  try
  {
    f();
    ++g_Failures;
    std::cerr << "FAIL " << what << ": no cca::Error\n";
  }
  catch (const cca::Error & e)
  {
    if (e.GetKind() != cca::Error::Kind::InvalidInput)
    {
      ++g_Failures;
      std::cerr << "FAIL " << what << ": wrong error kind (" << e.what() << ")\n";
    }
  }
}

void
ValidationSuite()
{
  const Mask       shape = ccatest::RandomMask(2, 8, 6, 1, 0.5, 1, 1);
  const TypedImage mask = MakeTyped(cca::PixelType::UInt8, shape.on);
  const TypedImage feature = RandomFeatureImage(shape, cca::PixelType::Float32, 0, 1, 1);
  const Mask       other = ccatest::RandomMask(2, 8, 7, 1, 0.5, 1, 1);
  const TypedImage otherFeature = RandomFeatureImage(other, cca::PixelType::Int16, 0, 1, 1);
  auto             run = [&](cca::Options o, const cca::ImageView & view) {
    cca::Engine e;
    o.backend = cca::Backend::Cpu;
    e.Run(view, o);
  };
  cca::Options base;
  base.intensity.featureImage = feature.View(shape);
  ExpectThrow("a feature image of another size", [&] {
    cca::Options o = base;
    o.intensity.featureImage = otherFeature.View(other);
    run(o, mask.View(shape));
  });
  ExpectThrow("a feature image of another dimension", [&] {
    cca::Options o = base;
    o.intensity.featureImage.dimension = 3;
    run(o, mask.View(shape));
  });
  ExpectThrow("a real image to label", [&] { run(cca::Options{}, feature.View(shape)); });
  ExpectThrow("a histogram kept with 0 bins", [&] {
    cca::Options o = base;
    o.intensity.histogram.keep = true;
    run(o, mask.View(shape));
  });
  ExpectThrow("histogram bounds reversed", [&] {
    cca::Options o = base;
    o.intensity.histogram.bins = 4;
    o.intensity.histogram.rangeOfFeatureImage = false;
    o.intensity.histogram.lower = 2;
    o.intensity.histogram.upper = 1;
    run(o, mask.View(shape));
  });
  ExpectThrow("label values with DLP", [&] {
    cca::Options o;
    o.objects = cca::Objects::LabelValues;
    o.algorithm = cca::Algorithm::DLP;
    run(o, mask.View(shape));
  });
  ExpectThrow("a selection with the tree merge compaction", [&] {
    cca::Options o;
    o.selection.keepLargest = 2;
    o.featureCompaction = cca::FeatureCompaction::TreeMerge;
    run(o, mask.View(shape));
  });
  ExpectThrow("maximumPixels below minimumPixels", [&] {
    cca::Options o;
    o.selection.minimumPixels = 5;
    o.selection.maximumPixels = 4;
    run(o, mask.View(shape));
  });
  ExpectThrow("negative keepLargest", [&] {
    cca::Options o;
    o.selection.keepLargest = -1;
    run(o, mask.View(shape));
  });
  ExpectThrow("a feature image in device memory for the CPU backend", [&] {
    cca::Options o = base;
    o.backend = cca::Backend::Cpu;
    o.intensity.featureImage.memory = cca::MemorySpace::CudaDevice;
    run(o, mask.View(shape));
  });
  // Refused before any device is used (Backend::Auto: no GPU is needed to see it).
  ExpectThrow("a feature image on another device than the image", [&] {
    cca::Options o = base;
    o.intensity.featureImage.memory = cca::MemorySpace::CudaDevice;
    o.intensity.featureImage.deviceOrdinal = 1;
    cca::ImageView image = mask.View(shape);
    image.memory = cca::MemorySpace::CudaDevice;
    cca::Engine().Run(image, o);
  });
  ExpectThrow("a feature image in device memory with a negative device ordinal", [&] {
    cca::Options o = base;
    o.intensity.featureImage.memory = cca::MemorySpace::CudaDevice;
    o.intensity.featureImage.deviceOrdinal = -1;
    cca::Engine().Run(mask.View(shape), o);
  });
  ExpectThrow("a feature image on another device than cudaDevice asks for", [&] {
    cca::Options o = base;
    o.cudaDevice = 0;
    o.intensity.featureImage.memory = cca::MemorySpace::CudaDevice;
    o.intensity.featureImage.deviceOrdinal = 2;
    cca::Engine().Run(mask.View(shape), o);
  });
}

} // namespace

int
main(int argc, char * argv[])
{
  if (argc != 3)
  {
    std::cerr << "usage: " << argv[0] << " labels|intensity|selection|large|validation cpu|cuda\n";
    return 2;
  }
  const std::string suite = argv[1];
  const std::string backendName = argv[2];
#ifdef CCA_TEST_EMULATED_CUDA
  g_Emulated = backendName == "emulated";
#endif
  if (backendName != "cpu" && backendName != "cuda" && !g_Emulated)
  {
    std::cerr << "unknown backend " << backendName << "\n";
    return 2;
  }
  const cca::Backend backend = backendName == "cpu" ? cca::Backend::Cpu : cca::Backend::Cuda;
  if (backendName == "cuda" && !cca::Engine::CudaAvailable())
  {
    std::cout << "no usable CUDA device: skipped\n";
    return SkipReturnCode;
  }
  const auto start = std::chrono::steady_clock::now();
  if (suite == "labels")
  {
    LabelsSuite(backend);
  }
  else if (suite == "intensity")
  {
    IntensitySuite(backend);
  }
  else if (suite == "selection")
  {
    SelectionSuite(backend);
  }
  else if (suite == "large")
  {
    LargeSuite(backend);
  }
  else if (suite == "validation")
  {
    ValidationSuite();
  }
  else
  {
    std::cerr << "unknown suite " << suite << "\n";
    return 2;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << suite << " on " << backendName << ": " << g_Cases << " cases, " << g_Failures << " failing, " << seconds
            << " s\n";
  return g_Failures == 0 ? 0 : 1;
}
