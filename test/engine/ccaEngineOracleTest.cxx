// The engine (cca::Engine) against the flood-fill oracle: labels, every
// feature, runs and the label image, on the papers' random family and on
// shapes that stress labeling (checkerboards, spirals, 1xN, Nx1, all-on,
// empty), for every pixel type, both foreground rules, both connectivities,
// dense and strided views. Each failure prints the case (seed included).
//
// Usage: ccaEngineOracleTest <suite> <backend>
//   suite:   oracle | large | exactness | validation
//   backend: cpu | cuda | auto   (cuda exits 77 when no device is usable)
#include "ccaFloodFillOracle.h"
#include "ccaTestMasks.h"

#include "cca/Engine.h"

#include <chrono>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace
{

using ccatest::Mask;

constexpr int SkipReturnCode = 77;

int g_Failures = 0;

/** How the mask is laid out in memory for the engine. */
enum class Layout
{
  Dense,      ///< strides 0 (dense)
  Padded,     ///< explicit strides with padding between rows and slices
  XStride2,   ///< every other element along x
  Transposed, ///< y fastest in memory (stride[0] = ny, stride[1] = 1)
  Reversed    ///< every axis reversed: negative strides, data at the last element (NumPy's a[::-1, ::-1])
};

const char *
LayoutName(Layout layout)
{
  switch (layout)
  {
    case Layout::Dense:
      return "dense";
    case Layout::Padded:
      return "padded";
    case Layout::XStride2:
      return "x-stride-2";
    case Layout::Transposed:
      return "transposed";
    case Layout::Reversed:
      return "reversed";
  }
  return "?";
}

struct Case
{
  Mask                mask;
  cca::Connectivity   connectivity = cca::Connectivity::Face;
  cca::PixelType      pixelType = cca::PixelType::UInt8;
  cca::ForegroundRule rule = cca::ForegroundRule::NotEqualTo;
  cca::LabelImageType labelImageType = cca::LabelImageType::None;
  Layout              layout = Layout::Dense;
  int                 threads = 0;
  bool                computeRuns = true;
  bool                computeFeatures = true;

  std::string
  Describe() const
  {
    std::ostringstream s;
    s << "[" << mask.name << ", " << (connectivity == cca::Connectivity::Face ? "face" : "full") << ", "
      << cca::PixelTypeName(pixelType) << ", " << (rule == cca::ForegroundRule::EqualTo ? "EqualTo" : "NotEqualTo")
      << ", labels "
      << (labelImageType == cca::LabelImageType::None     ? "none"
          : labelImageType == cca::LabelImageType::UInt32 ? "u32"
                                                          : "u64")
      << ", " << LayoutName(layout) << ", threads " << threads << (computeRuns ? "" : ", no runs")
      << (computeFeatures ? "" : ", labels only") << "]";
    return s.str();
  }
};

// ---- pixel values --------------------------------------------------------------

/** The distinguished value of each type: the foreground value (EqualTo) or the
 *  background value (NotEqualTo). Chosen away from 0 and 1, with high bits set,
 *  so that a truncated or sign-extended comparison shows. */
template <typename T>
T
SpecialValue();
template <>
std::uint8_t
SpecialValue<std::uint8_t>()
{
  return 200;
}
template <>
std::int8_t
SpecialValue<std::int8_t>()
{
  return -7;
}
template <>
std::uint16_t
SpecialValue<std::uint16_t>()
{
  return 40000;
}
template <>
std::int16_t
SpecialValue<std::int16_t>()
{
  return -30000;
}
template <>
std::uint32_t
SpecialValue<std::uint32_t>()
{
  return 0xDEADBEEFu;
}
template <>
std::int32_t
SpecialValue<std::int32_t>()
{
  return -123456789;
}
template <>
std::uint64_t
SpecialValue<std::uint64_t>()
{
  return 0xF000000000000001ull;
}
template <>
std::int64_t
SpecialValue<std::int64_t>()
{
  return std::numeric_limits<std::int64_t>::min() + 3;
}

/** A value different from v: sometimes a near miss (v +- 1, v with its top or
 *  bottom bit flipped, the low half of v alone), sometimes random bits. */
template <typename T>
T
OtherValue(T v, std::mt19937_64 & rng)
{
  using U = typename std::make_unsigned<T>::type;
  const U   uv = static_cast<U>(v);
  const int bits = 8 * static_cast<int>(sizeof(T));
  U         candidate = 0;
  switch (rng() % 7)
  {
    case 0:
      candidate = static_cast<U>(uv + 1);
      break;
    case 1:
      candidate = static_cast<U>(uv - 1);
      break;
    case 2:
      candidate = static_cast<U>(uv ^ (U{ 1 } << (bits - 1)));
      break;
    case 3:
      candidate = static_cast<U>(uv & static_cast<U>((U{ 1 } << (bits / 2)) - 1));
      break;
    case 4:
      candidate = 0;
      break;
    default:
      candidate = static_cast<U>(rng());
      break;
  }
  if (candidate == uv)
  {
    candidate = static_cast<U>(uv ^ 1);
  }
  return static_cast<T>(candidate);
}

/** The pixel buffer handed to the engine, with the view describing it. */
struct EncodedImage
{
  std::vector<unsigned char> bytes;
  cca::ImageView             view;
  std::int64_t               foregroundValue = 0;
};

template <typename T>
EncodedImage
EncodeTyped(const Case & c, std::uint64_t seed)
{
  const Mask &       m = c.mask;
  const std::int64_t nx = m.size[0];
  const std::int64_t ny = m.size[1];
  const std::int64_t nz = m.size[2];
  std::int64_t       stride[3] = { 1, nx, nx * ny };
  std::int64_t       elements = nx * ny * nz;
  switch (c.layout)
  {
    case Layout::Dense:
      break;
    case Layout::Padded:
      stride[1] = nx + 3;
      stride[2] = stride[1] * ny + 5;
      elements = stride[2] * nz;
      break;
    case Layout::XStride2:
      stride[0] = 2;
      stride[1] = 2 * nx + 1;
      stride[2] = stride[1] * ny;
      elements = stride[2] * nz;
      break;
    case Layout::Transposed:
      stride[0] = ny;
      stride[1] = 1;
      stride[2] = nx * ny;
      break;
    case Layout::Reversed:
      break; // dense in memory, addressed from the last element below
  }
  // The reversed view's pixel (x, y, z) is element (elements - 1) - (dense index).
  const bool      reversed = c.layout == Layout::Reversed;
  std::mt19937_64 rng(seed);
  const T         special = SpecialValue<T>();
  const bool      equalTo = c.rule == cca::ForegroundRule::EqualTo;
  // Elements outside the view hold foreground values: reading them shows.
  std::vector<T> buffer(static_cast<std::size_t>(elements), equalTo ? special : OtherValue(special, rng));
  for (std::int64_t z = 0; z < nz; ++z)
  {
    for (std::int64_t y = 0; y < ny; ++y)
    {
      for (std::int64_t x = 0; x < nx; ++x)
      {
        const bool on = m.At(x, y, z);
        T          value;
        if (equalTo)
        {
          value = on ? special : OtherValue(special, rng);
        }
        else
        {
          value = on ? OtherValue(special, rng) : special;
        }
        const std::int64_t element = x * stride[0] + y * stride[1] + z * stride[2];
        buffer[static_cast<std::size_t>(reversed ? elements - 1 - element : element)] = value;
      }
    }
  }
  EncodedImage e;
  e.bytes.resize(buffer.size() * sizeof(T));
  std::memcpy(e.bytes.data(), buffer.data(), e.bytes.size());
  e.view.data = reversed ? e.bytes.data() + (elements - 1) * static_cast<std::int64_t>(sizeof(T)) : e.bytes.data();
  e.view.pixelType = c.pixelType;
  e.view.dimension = m.dimension;
  for (int i = 0; i < 3; ++i)
  {
    e.view.size[i] = m.size[i];
    e.view.stride[i] = c.layout == Layout::Dense ? 0 : reversed ? -stride[i] : stride[i];
  }
  if (m.dimension == 2 && c.layout != Layout::Dense)
  {
    e.view.stride[2] = nx * ny; // unused in 2D, but all strides must be non-zero
  }
  // The engine converts foregroundValue to the pixel type (bit pattern for 64 bits).
  e.foregroundValue = static_cast<std::int64_t>(special);
  return e;
}

EncodedImage
Encode(const Case & c, std::uint64_t seed)
{
  switch (c.pixelType)
  {
    case cca::PixelType::UInt8:
      return EncodeTyped<std::uint8_t>(c, seed);
    case cca::PixelType::Int8:
      return EncodeTyped<std::int8_t>(c, seed);
    case cca::PixelType::UInt16:
      return EncodeTyped<std::uint16_t>(c, seed);
    case cca::PixelType::Int16:
      return EncodeTyped<std::int16_t>(c, seed);
    case cca::PixelType::UInt32:
      return EncodeTyped<std::uint32_t>(c, seed);
    case cca::PixelType::Int32:
      return EncodeTyped<std::int32_t>(c, seed);
    case cca::PixelType::UInt64:
      return EncodeTyped<std::uint64_t>(c, seed);
    case cca::PixelType::Int64:
      return EncodeTyped<std::int64_t>(c, seed);
    case cca::PixelType::Float32: // feature images only: nothing to label
    case cca::PixelType::Float64:
      break;
  }
  return {};
}

// ---- comparison ------------------------------------------------------------------

class Reporter
{
public:
  explicit Reporter(std::string context)
    : m_Context(std::move(context))
  {}
  template <typename A, typename B>
  void
  Check(bool ok, const std::string & what, const A & got, const B & expected)
  {
    if (ok)
    {
      return;
    }
    if (m_Count == 0)
    {
      ++g_Failures;
      std::cerr << "FAIL " << m_Context << "\n";
    }
    if (m_Count < 12)
    {
      std::cerr << "   " << what << ": got " << got << ", expected " << expected << "\n";
    }
    else if (m_Count == 12)
    {
      std::cerr << "   ... (further differences of this case not shown)\n";
    }
    ++m_Count;
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
CompareFeatures(Reporter &                     rep,
                std::int64_t                   label,
                const cca::ComponentFeatures & got,
                const cca::ComponentFeatures & exp,
                int                            dimension)
{
  const std::string p = "label " + std::to_string(label) + " ";
  rep.Check(got.pixelCount == exp.pixelCount, p + "pixelCount", got.pixelCount, exp.pixelCount);
  for (int i = 0; i < 3; ++i)
  {
    const std::string a = "[" + std::to_string(i) + "]";
    rep.Check(got.boundingBoxMin[i] == exp.boundingBoxMin[i],
              p + "boundingBoxMin" + a,
              got.boundingBoxMin[i],
              exp.boundingBoxMin[i]);
    rep.Check(got.boundingBoxMax[i] == exp.boundingBoxMax[i],
              p + "boundingBoxMax" + a,
              got.boundingBoxMax[i],
              exp.boundingBoxMax[i]);
    rep.Check(got.coordinateSum[i] == exp.coordinateSum[i],
              p + "coordinateSum" + a,
              got.coordinateSum[i],
              exp.coordinateSum[i]);
  }
  for (int i = 0; i < 6; ++i)
  {
    const std::string a = "[" + std::to_string(i) + "]";
    rep.Check(got.coordinateProductSum[i] == exp.coordinateProductSum[i],
              p + "coordinateProductSum" + a,
              got.coordinateProductSum[i],
              exp.coordinateProductSum[i]);
    // A 2D image has no z faces: slots 4 and 5 carry no meaning there.
    if (dimension == 3 || i < 4)
    {
      rep.Check(
        got.pixelsOnFace[i] == exp.pixelsOnFace[i], p + "pixelsOnFace" + a, got.pixelsOnFace[i], exp.pixelsOnFace[i]);
    }
  }
  rep.Check(got.pixelsOnBorder == exp.pixelsOnBorder, p + "pixelsOnBorder", got.pixelsOnBorder, exp.pixelsOnBorder);
  for (int slot = 0; slot < cca::NumberOfInterceptSlots; ++slot)
  {
    const bool hasZ = ((slot + 1) & 4) != 0;
    if (dimension == 2 && hasZ)
    {
      continue; // z classes are never used for 2D images
    }
    rep.Check(got.interceptCounts[slot] == exp.interceptCounts[slot],
              p + "interceptCounts[" + std::to_string(slot) + "]",
              got.interceptCounts[slot],
              exp.interceptCounts[slot]);
  }
}

std::string
RunText(const cca::Run & r)
{
  std::ostringstream s;
  s << "(" << r.x << "," << r.y << "," << r.z << " len " << r.length << ")";
  return s.str();
}

/** Runs one case on one engine and compares everything with the oracle;
 *  into a result reused across runs when reused is given (its vectors then
 *  hold the previous case's table and runs: the engine must size them). */
void
RunCase(cca::Engine &                 engine,
        const Case &                  c,
        cca::Backend                  backend,
        std::uint64_t                 valueSeed,
        const ccatest::OracleResult * precomputed = nullptr,
        cca::Result *                 reused = nullptr)
{
  const std::string context = c.Describe() + " backend " + cca::BackendName(backend);
  Reporter          rep(context);

  const EncodedImage image = Encode(c, valueSeed);
  cca::Options       options;
  options.foregroundRule = c.rule;
  options.foregroundValue = image.foregroundValue;
  options.connectivity = c.connectivity;
  options.backend = backend;
  options.computeRuns = c.computeRuns;
  options.computeFeatures = c.computeFeatures;
  options.labelImageType = c.labelImageType;
  options.numberOfThreads = c.threads;
  const std::int64_t         n = c.mask.NumberOfPixels();
  std::vector<std::uint32_t> labels32;
  std::vector<std::uint64_t> labels64;
  constexpr std::uint64_t    poison = 0xABABABABABABABABull;
  if (c.labelImageType == cca::LabelImageType::UInt32)
  {
    labels32.assign(static_cast<std::size_t>(n), static_cast<std::uint32_t>(poison));
    options.labelImage = labels32.data();
  }
  else if (c.labelImageType == cca::LabelImageType::UInt64)
  {
    labels64.assign(static_cast<std::size_t>(n), poison);
    options.labelImage = labels64.data();
  }

  cca::Result   fresh;
  cca::Result & result = reused != nullptr ? *reused : fresh;
  // Every other case is told when its objects are ready, before the label
  // image is copied (Options::objectsReady): what the result held then must
  // be what Run returns.
  const bool  announcing = valueSeed % 2 == 0;
  int         announcements = 0;
  cca::Result announced;
  if (announcing)
  {
    options.objectsReady = [&] {
      ++announcements;
      announced.componentCount = result.componentCount;
      announced.objectsFound = result.objectsFound;
      announced.features = result.features;
      announced.runs = result.runs;
      announced.runOffsets = result.runOffsets;
      announced.labelValues = result.labelValues;
      announced.sourceNumbers = result.sourceNumbers;
    };
  }
  try
  {
    engine.Run(image.view, options, result);
  }
  catch (const std::exception & e)
  {
    rep.Check(false, "Engine::Run threw", e.what(), "no exception");
    return;
  }
  if (announcing)
  {
    const auto sameBytes = [](const auto & a, const auto & b) {
      return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0);
    };
    rep.Check(announcements == 1, "objectsReady calls", announcements, 1);
    rep.Check(announced.componentCount == result.componentCount && announced.objectsFound == result.objectsFound,
              "component count when the objects were announced",
              announced.componentCount,
              result.componentCount);
    rep.Check(sameBytes(announced.features, result.features) && sameBytes(announced.runs, result.runs) &&
                sameBytes(announced.runOffsets, result.runOffsets) &&
                sameBytes(announced.labelValues, result.labelValues) &&
                sameBytes(announced.sourceNumbers, result.sourceNumbers),
              "table, runs and values when the objects were announced are the returned ones",
              "different",
              "the same");
  }

  ccatest::OracleResult computed;
  if (!precomputed)
  {
    computed = ccatest::FloodFill(c.mask, c.connectivity == cca::Connectivity::Full);
  }
  const ccatest::OracleResult & oracle = precomputed ? *precomputed : computed;

  cca::Backend expectedBackend = backend;
  if (backend == cca::Backend::Auto)
  {
    expectedBackend = cca::Engine::CudaAvailable() ? cca::Backend::Cuda : cca::Backend::Cpu;
  }
  rep.Check(result.backendUsed == expectedBackend,
            "backendUsed",
            cca::BackendName(result.backendUsed),
            cca::BackendName(expectedBackend));
  rep.Check(
    result.componentCount == oracle.componentCount, "componentCount", result.componentCount, oracle.componentCount);
  const std::int64_t tableSize = c.computeFeatures ? oracle.componentCount : 0;
  rep.Check(static_cast<std::int64_t>(result.features.size()) == tableSize,
            "features.size()",
            result.features.size(),
            tableSize);
  if (rep.Failed())
  {
    return;
  }
  for (std::int64_t i = 0; i < tableSize; ++i)
  {
    CompareFeatures(rep,
                    i + 1,
                    result.features[static_cast<std::size_t>(i)],
                    oracle.features[static_cast<std::size_t>(i)],
                    c.mask.dimension);
  }

  if (c.computeRuns)
  {
    rep.Check(static_cast<std::int64_t>(result.runOffsets.size()) == oracle.componentCount + 1,
              "runOffsets.size()",
              result.runOffsets.size(),
              oracle.componentCount + 1);
    if (!rep.Failed())
    {
      rep.Check(result.runOffsets.front() == 0, "runOffsets[0]", result.runOffsets.front(), 0);
      rep.Check(result.runOffsets.back() == static_cast<std::int64_t>(result.runs.size()),
                "runOffsets[N]",
                result.runOffsets.back(),
                result.runs.size());
    }
    if (!rep.Failed())
    {
      for (std::int64_t i = 0; i < oracle.componentCount; ++i)
      {
        const auto &       expected = oracle.runs[static_cast<std::size_t>(i)];
        const std::int64_t begin = result.runOffsets[static_cast<std::size_t>(i)];
        const std::int64_t end = result.runOffsets[static_cast<std::size_t>(i) + 1];
        const std::string  p = "label " + std::to_string(i + 1) + " ";
        rep.Check(end - begin == static_cast<std::int64_t>(expected.size()),
                  p + "number of runs",
                  end - begin,
                  expected.size());
        if (end - begin != static_cast<std::int64_t>(expected.size()))
        {
          continue;
        }
        for (std::int64_t k = begin; k < end; ++k)
        {
          const cca::Run & g = result.runs[static_cast<std::size_t>(k)];
          const cca::Run & e = expected[static_cast<std::size_t>(k - begin)];
          const bool       same = g.x == e.x && g.y == e.y && g.z == e.z && g.length == e.length;
          rep.Check(same, p + "run " + std::to_string(k - begin), RunText(g), RunText(e));
        }
      }
    }
  }
  else
  {
    rep.Check(result.runs.empty(), "runs with computeRuns off: size", result.runs.size(), 0);
  }

  if (c.labelImageType != cca::LabelImageType::None)
  {
    for (std::int64_t p = 0; p < n; ++p)
    {
      const std::uint64_t got = c.labelImageType == cca::LabelImageType::UInt32 ? labels32[static_cast<std::size_t>(p)]
                                                                                : labels64[static_cast<std::size_t>(p)];
      const std::uint64_t expected = static_cast<std::uint64_t>(oracle.labels[static_cast<std::size_t>(p)]);
      if (got != expected)
      {
        const std::int64_t nx = c.mask.size[0];
        const std::int64_t ny = c.mask.size[1];
        std::ostringstream where;
        where << "label image at (" << p % nx << "," << (p / nx) % ny << "," << p / (nx * ny) << ")";
        rep.Check(false, where.str(), got, expected);
      }
    }
  }
}

// ---- the case lists -------------------------------------------------------------

const cca::PixelType AllPixelTypes[] = { cca::PixelType::UInt8,  cca::PixelType::Int8,   cca::PixelType::UInt16,
                                         cca::PixelType::Int16,  cca::PixelType::UInt32, cca::PixelType::Int32,
                                         cca::PixelType::UInt64, cca::PixelType::Int64 };
const double         Densities[] = { 0.05, 0.2, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.8, 0.95, 1.0 };
const int            Granularities[] = { 1, 4, 16 };
const int            ThreadCounts[] = { 0, 1, 2, 3, 5, 16 };
const Layout         Layouts[] = { Layout::Dense,    Layout::Dense,      Layout::Padded,
                                   Layout::XStride2, Layout::Transposed, Layout::Reversed };

/** Varies every option with the case number so that all combinations of
 *  neighbouring options appear over the list. */
Case
VaryOptions(Mask mask, int k)
{
  Case c;
  c.mask = std::move(mask);
  c.connectivity = (k % 2 == 0) ? cca::Connectivity::Face : cca::Connectivity::Full;
  c.pixelType = AllPixelTypes[(k / 2) % 8];
  c.rule = ((k / 3) % 2 == 0) ? cca::ForegroundRule::NotEqualTo : cca::ForegroundRule::EqualTo;
  const int labelChoice = (k / 5) % 3;
  c.labelImageType = labelChoice == 0   ? cca::LabelImageType::None
                     : labelChoice == 1 ? cca::LabelImageType::UInt32
                                        : cca::LabelImageType::UInt64;
  c.layout = Layouts[(k / 7) % 6];
  c.threads = ThreadCounts[(k / 11) % 6];
  c.computeRuns = (k % 13) != 12;
  // Labels only (no feature table) every fifth case, with a label image or runs to check.
  c.computeFeatures = (k % 5) != 4 || (c.labelImageType == cca::LabelImageType::None && !c.computeRuns);
  return c;
}

std::vector<Case>
OracleCases()
{
  std::vector<Case> cases;
  int               k = 0;
  auto              add = [&](Mask m) {
    // Every mask runs with both connectivities; other options vary with k.
    for (int conn = 0; conn < 2; ++conn)
    {
      Case c = VaryOptions(m, k++);
      c.connectivity = conn == 0 ? cca::Connectivity::Face : cca::Connectivity::Full;
      cases.push_back(std::move(c));
    }
  };
  const std::int64_t heights[] = { 1, 2, 3, 7, 31, 32, 33, 64, 65, 97 };
  std::uint32_t      seed = 1000;
  // 2D: every width 1..130 (multiples of 32 and their neighbours included).
  for (std::int64_t w = 1; w <= 130; ++w)
  {
    const std::int64_t h = heights[w % 10];
    const double       d = Densities[w % 11];
    const int          g = Granularities[(w / 11) % 3];
    add(ccatest::RandomMask(2, w, h, 1, d, g, seed++));
  }
  // 2D: percolation densities on larger images at every granularity.
  for (double d : { 0.4, 0.6 })
  {
    for (int g : Granularities)
    {
      add(ccatest::RandomMask(2, 257, 190, 1, d, g, seed++));
    }
  }
  // 3D: sizes with 1s, non-multiples of 32 and percolation densities (3D
  // thresholds are lower: about 0.31 for 6-connectivity, 0.1 for 26).
  const std::int64_t sizes3[][3] = { { 1, 1, 1 },    { 1, 1, 17 },  { 17, 1, 1 },  { 1, 17, 1 }, { 33, 2, 3 },
                                     { 5, 33, 4 },   { 32, 32, 3 }, { 31, 9, 33 }, { 64, 5, 7 }, { 65, 17, 9 },
                                     { 20, 20, 20 }, { 3, 40, 21 }, { 47, 23, 11 } };
  const double       densities3[] = { 0.1, 0.2, 0.31, 0.4, 0.6, 0.9 };
  int                s = 0;
  for (const auto & sz : sizes3)
  {
    for (int g : Granularities)
    {
      const double d = densities3[(s++) % 6];
      add(ccatest::RandomMask(3, sz[0], sz[1], sz[2], d, g, seed++));
    }
  }
  // Lines: 1xN and Nx1 (and their 3D versions) at several densities.
  for (std::int64_t n : { 1, 2, 31, 32, 33, 63, 64, 65, 129, 1000 })
  {
    add(ccatest::RandomMask(2, 1, n, 1, 0.5, 1, seed++));
    add(ccatest::RandomMask(2, n, 1, 1, 0.5, 1, seed++));
    add(ccatest::ConstantMask(2, 1, n, 1, true));
    add(ccatest::ConstantMask(2, n, 1, 1, true));
    add(ccatest::RandomMask(3, 1, 1, n, 0.7, 1, seed++));
  }
  // Structured shapes.
  for (std::int64_t w : { 1, 2, 5, 32, 33, 64, 77 })
  {
    add(ccatest::Checkerboard(2, w, 41, 1, 0));
    add(ccatest::Checkerboard(2, w, 40, 1, 1));
    add(ccatest::Checkerboard(3, w, 9, 5, 0));
    add(ccatest::Spiral(2, w, w + 3, 1));
    add(ccatest::ConstantMask(2, w, 33, 1, true));
    add(ccatest::ConstantMask(2, w, 33, 1, false));
    add(ccatest::ConstantMask(3, w, 6, 7, true));
    add(ccatest::ConstantMask(3, w, 6, 7, false));
  }
  add(ccatest::Spiral(2, 128, 128, 1));
  add(ccatest::Spiral(2, 131, 97, 1));
  add(ccatest::Spiral(3, 40, 37, 9));
  add(ccatest::OnePixel(2, 1, 1, 1, 0, 0, 0));
  add(ccatest::OnePixel(2, 70, 50, 1, 69, 49, 0));
  add(ccatest::OnePixel(2, 70, 50, 1, 33, 17, 0));
  add(ccatest::OnePixel(3, 1, 1, 1, 0, 0, 0));
  add(ccatest::OnePixel(3, 9, 8, 7, 8, 7, 6));
  add(ccatest::OnePixel(3, 9, 8, 7, 4, 3, 2));
  return cases;
}

bool
SelectBackend(const std::string & name, cca::Backend & backend)
{
  if (name == "cpu")
  {
    backend = cca::Backend::Cpu;
    return true;
  }
  if (name == "cuda")
  {
    backend = cca::Backend::Cuda;
    return true;
  }
  if (name == "auto")
  {
    backend = cca::Backend::Auto;
    return true;
  }
  return false;
}

// ---- suites ---------------------------------------------------------------------

int
OracleSuite(cca::Backend backend)
{
  const auto  cases = OracleCases();
  cca::Engine engine; // reused across cases, as callers do
  for (std::size_t i = 0; i < cases.size(); ++i)
  {
    RunCase(engine, cases[i], backend, 77 + i);
  }
  // A fresh engine per run must give the same answers as a reused one.
  for (std::size_t i = 0; i < cases.size(); i += 37)
  {
    cca::Engine fresh;
    RunCase(fresh, cases[i], backend, 177 + i);
  }
  // So must one result object reused across cases whose tables and runs
  // grow and shrink (every 7th case, from both ends in turn).
  cca::Result reused;
  for (std::size_t k = 0; k < cases.size() / 7; ++k)
  {
    const std::size_t i = k % 2 == 0 ? 7 * (k / 2) : cases.size() - 1 - 7 * (k / 2);
    RunCase(engine, cases[i], backend, 277 + i, nullptr, &reused);
  }
  std::cout << cases.size() << " oracle cases on " << cca::BackendName(backend) << "\n";
  return static_cast<int>(cases.size());
}

/** Sums far past 32 bits (and one case near the 64-bit limit the validation
 *  allows), where an int32 or double accumulation would show. */
void
ExactnessSuite(cca::Backend backend)
{
  cca::Engine engine;
  struct Big
  {
    Mask mask;
    bool full;
  };
  std::vector<Big> bigs;
  bigs.push_back({ ccatest::ConstantMask(2, 70000, 70, 1, true), false });
  bigs.push_back({ ccatest::RandomMask(2, 70000, 70, 1, 0.97, 16, 4242), true });
  // largest coordinate^2 * pixels = 1.6e19 < 2^64: sum x^2 ~ 5.3e18 > 2^62.
  bigs.push_back({ ccatest::ConstantMask(2, 2000000, 2, 1, true), false });
  bigs.push_back({ ccatest::ConstantMask(3, 2, 2, 600000, true), true });
  for (const auto & b : bigs)
  {
    Case c;
    c.mask = b.mask;
    c.connectivity = b.full ? cca::Connectivity::Full : cca::Connectivity::Face;
    c.labelImageType = cca::LabelImageType::UInt32;
    const auto oracle = ccatest::FloodFill(c.mask, b.full);
    RunCase(engine, c, backend, 5, &oracle);
    c.pixelType = cca::PixelType::Int64;
    c.rule = cca::ForegroundRule::EqualTo;
    c.labelImageType = cca::LabelImageType::UInt64;
    c.threads = 3;
    RunCase(engine, c, backend, 6, &oracle);
  }
  std::cout << bigs.size() << " large images on " << cca::BackendName(backend) << "\n";
}

/** Images larger than a GPU block or a CPU chunk in every direction, at the
 *  percolation thresholds where one component spans the whole image. */
void
LargeSuite(cca::Backend backend)
{
  cca::Engine       engine;
  std::vector<Case> cases;
  std::uint32_t     seed = 9000;
  int               k = 0;
  for (double d : { 0.4, 0.6, 0.95 })
  {
    for (int g : { 1, 4 })
    {
      cases.push_back(VaryOptions(ccatest::RandomMask(2, 1531, 1027, 1, d, g, seed++), k++));
    }
  }
  for (double d : { 0.12, 0.31, 0.7 })
  {
    cases.push_back(VaryOptions(ccatest::RandomMask(3, 131, 97, 67, d, 1, seed++), k++));
  }
  cases.push_back(VaryOptions(ccatest::Spiral(2, 1030, 1001, 1), k++));
  cases.push_back(VaryOptions(ccatest::Checkerboard(2, 1025, 517, 1, 1), k++));
  for (std::size_t i = 0; i < cases.size(); ++i)
  {
    RunCase(engine, cases[i], backend, 300 + i);
  }
  std::cout << cases.size() << " large cases on " << cca::BackendName(backend) << "\n";
}

void
ExpectThrow(const std::string & what, const std::function<void()> & f, cca::Error::Kind kind)
{
  try
  {
    f();
  }
  catch (const cca::Error & e)
  {
    if (e.GetKind() != kind)
    {
      ++g_Failures;
      std::cerr << "FAIL " << what << ": threw cca::Error of kind " << static_cast<int>(e.GetKind()) << " instead of "
                << static_cast<int>(kind) << " (" << e.what() << ")\n";
    }
    return;
  }
  catch (const std::exception & e)
  {
    ++g_Failures;
    std::cerr << "FAIL " << what << ": threw a non-cca exception: " << e.what() << "\n";
    return;
  }
  ++g_Failures;
  std::cerr << "FAIL " << what << ": did not throw\n";
}

void
ValidationSuite()
{
  std::vector<std::uint8_t> pixels(64, 1);
  auto                      good = [&]() {
    cca::ImageView v;
    v.data = pixels.data();
    v.dimension = 2;
    v.size[0] = 8;
    v.size[1] = 8;
    v.size[2] = 1;
    return v;
  };
  const cca::Options     defaults;
  const cca::Error::Kind invalid = cca::Error::Kind::InvalidInput;
  // The valid base case must pass.
  try
  {
    cca::ValidateInput(good(), defaults);
  }
  catch (const std::exception & e)
  {
    ++g_Failures;
    std::cerr << "FAIL a valid 8x8 view was rejected: " << e.what() << "\n";
  }
  ExpectThrow(
    "null data",
    [&] {
      auto v = good();
      v.data = nullptr;
      cca::ValidateInput(v, defaults);
    },
    invalid);
  ExpectThrow(
    "empty region (size[0] = 0)",
    [&] {
      auto v = good();
      v.size[0] = 0;
      cca::ValidateInput(v, defaults);
    },
    invalid);
  ExpectThrow(
    "empty region (size[1] = 0)",
    [&] {
      auto v = good();
      v.size[1] = 0;
      cca::ValidateInput(v, defaults);
    },
    invalid);
  ExpectThrow(
    "negative size",
    [&] {
      auto v = good();
      v.size[1] = -4;
      cca::ValidateInput(v, defaults);
    },
    invalid);
  ExpectThrow(
    "3D empty region (size[2] = 0)",
    [&] {
      auto v = good();
      v.dimension = 3;
      v.size[2] = 0;
      cca::ValidateInput(v, defaults);
    },
    invalid);
  ExpectThrow(
    "dimension 4",
    [&] {
      auto v = good();
      v.dimension = 4;
      cca::ValidateInput(v, defaults);
    },
    invalid);
  ExpectThrow(
    "dimension 1",
    [&] {
      auto v = good();
      v.dimension = 1;
      cca::ValidateInput(v, defaults);
    },
    invalid);
  ExpectThrow(
    "2D with size[2] = 2",
    [&] {
      auto v = good();
      v.size[2] = 2;
      cca::ValidateInput(v, defaults);
    },
    invalid);
  ExpectThrow(
    "some strides zero",
    [&] {
      auto v = good();
      v.stride[0] = 1;
      cca::ValidateInput(v, defaults);
    },
    invalid);
  ExpectThrow(
    "label image requested without a buffer",
    [&] {
      cca::Options o;
      o.labelImageType = cca::LabelImageType::UInt32;
      cca::ValidateInput(good(), o);
    },
    invalid);
  ExpectThrow(
    "negative thread count",
    [&] {
      cca::Options o;
      o.numberOfThreads = -1;
      cca::ValidateInput(good(), o);
    },
    invalid);
  ExpectThrow(
    "second-order sums past 2^64",
    [&] {
      auto v = good();
      v.size[0] = std::int64_t{ 1 } << 22;
      v.size[1] = std::int64_t{ 1 } << 22;
      cca::ValidateInput(v, defaults);
    },
    cca::Error::Kind::Overflow);
  // Sizes whose pixel count leaves 64 bits are refused as overflows before any
  // allocation is sized from them (2^30 cubed wraps to exactly 0, which must not
  // read as "empty"); the 64-pixel buffer behind these views is never read.
  const cca::Error::Kind overflow = cca::Error::Kind::Overflow;
  auto                   huge = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    auto v = good();
    v.dimension = 3;
    v.size[0] = x;
    v.size[1] = y;
    v.size[2] = z;
    return v;
  };
  constexpr std::int64_t maxExtent = (std::int64_t{ 1 } << 31) - 2;
  ExpectThrow(
    "pixel count wrapping to 0 (2^30 cubed)",
    [&] {
      cca::ValidateInput(huge(std::int64_t{ 1 } << 30, std::int64_t{ 1 } << 30, std::int64_t{ 1 } << 30), defaults);
    },
    overflow);
  ExpectThrow(
    "pixel count past 2^64 ((2^31-2) cubed)",
    [&] { cca::ValidateInput(huge(maxExtent, maxExtent, maxExtent), defaults); },
    overflow);
  ExpectThrow(
    "NumberOfPixels of (2^31-2) cubed",
    [&] { (void)huge(maxExtent, maxExtent, maxExtent).NumberOfPixels(); },
    overflow);
  ExpectThrow(
    "2^62 pixels (bytes past 2^63)",
    [&] {
      cca::ValidateInput(huge(std::int64_t{ 1 } << 21, std::int64_t{ 1 } << 21, std::int64_t{ 1 } << 20), defaults);
    },
    overflow);
  ExpectThrow(
    "strides spanning past 2^64",
    [&] {
      auto v = good();
      v.stride[0] = 1;
      v.stride[1] = std::int64_t{ 1 } << 62;
      v.stride[2] = 64;
      cca::ValidateInput(v, defaults);
    },
    overflow);
  ExpectThrow(
    "Engine::Run on a wrapping size (never reads the 64-pixel buffer)",
    [&] {
      cca::Engine  e;
      cca::Options o;
      o.backend = cca::Backend::Cpu;
      e.Run(huge(std::int64_t{ 1 } << 30, std::int64_t{ 1 } << 30, std::int64_t{ 1 } << 30), o);
    },
    overflow);
  // Engine::Run validates too, before touching the data.
  ExpectThrow(
    "Engine::Run with dimension 4",
    [&] {
      cca::Engine e;
      auto        v = good();
      v.dimension = 4;
      cca::Options o;
      o.backend = cca::Backend::Cpu;
      e.Run(v, o);
    },
    invalid);
  ExpectThrow(
    "Engine::Run with null data",
    [&] {
      cca::Engine e;
      auto        v = good();
      v.data = nullptr;
      cca::Options o;
      o.backend = cca::Backend::Cpu;
      e.Run(v, o);
    },
    invalid);
  ExpectThrow(
    "a zero stride along an axis longer than 1 (a broadcast view)",
    [&] {
      auto v = good();
      v.stride[0] = 1;
      v.stride[1] = 0;
      v.stride[2] = 64;
      cca::ValidateInput(v, defaults);
    },
    invalid);
  // Device memory: the CPU backend refuses it; the device must be the image's.
  auto onDevice = [&]() {
    auto v = good();
    v.memory = cca::MemorySpace::CudaDevice;
    v.deviceOrdinal = 1;
    return v;
  };
  ExpectThrow(
    "device image with Backend::Cpu",
    [&] {
      cca::Options o;
      o.backend = cca::Backend::Cpu;
      cca::ValidateInput(onDevice(), o);
    },
    invalid);
  ExpectThrow(
    "device label image with Backend::Cpu",
    [&] {
      std::vector<std::uint32_t> labels(64);
      cca::Options               o;
      o.backend = cca::Backend::Cpu;
      o.labelImageType = cca::LabelImageType::UInt32;
      o.labelImage = labels.data();
      o.labelImageMemory = cca::MemorySpace::CudaDevice;
      cca::ValidateInput(good(), o);
    },
    invalid);
  ExpectThrow(
    "labels only (no feature table) with a selection",
    [&] {
      cca::Options o;
      o.computeFeatures = false;
      o.selection.minimumPixels = 2;
      cca::ValidateInput(good(), o);
    },
    invalid);
  ExpectThrow(
    "device image on device 1 with cudaDevice 0",
    [&] {
      cca::Options o;
      o.backend = cca::Backend::Cuda;
      o.cudaDevice = 0;
      cca::ValidateInput(onDevice(), o);
    },
    invalid);
  ExpectThrow(
    "device image with a negative device ordinal",
    [&] {
      auto v = onDevice();
      v.deviceOrdinal = -1;
      cca::ValidateInput(v, defaults);
    },
    invalid);
  ExpectThrow(
    "Engine::Run, Backend::Cpu, device image",
    [&] {
      cca::Engine  e;
      cca::Options o;
      o.backend = cca::Backend::Cpu;
      e.Run(onDevice(), o);
    },
    invalid);
  try
  {
    // A stride-0 axis of length 1 is fine (NumPy gives such views).
    auto v = good();
    v.size[0] = 1;
    v.stride[0] = 0;
    v.stride[1] = 8;
    v.stride[2] = 64;
    cca::ValidateInput(v, defaults);
  }
  catch (const std::exception & e)
  {
    ++g_Failures;
    std::cerr << "FAIL a stride of 0 along an axis of length 1 was rejected: " << e.what() << "\n";
  }
  if (!cca::Engine::CudaCompiledIn())
  {
    ExpectThrow(
      "Engine::Run, Backend::Auto, device image, no CUDA in the build",
      [&] {
        cca::Engine e;
        e.Run(onDevice(), defaults);
      },
      cca::Error::Kind::NoDevice);
  }
  {
    // Engine::DeviceMemoryInUse: a CPU run holds no device memory, and
    // without the CUDA backend nothing is ever held.
    cca::Engine::ResetDeviceMemoryPeak();
    const cca::DeviceMemoryUse before = cca::Engine::DeviceMemoryInUse();
    cca::Engine                e;
    cca::Options               o;
    o.backend = cca::Backend::Cpu;
    e.Run(good(), o);
    const cca::DeviceMemoryUse after = cca::Engine::DeviceMemoryInUse();
    if (before.peakBytes != before.heldBytes || after.heldBytes != before.heldBytes ||
        after.peakBytes != before.heldBytes ||
        (!cca::Engine::CudaCompiledIn() && (after.heldBytes != 0 || after.peakBytes != 0)))
    {
      ++g_Failures;
      std::cerr << "FAIL device memory around a CPU run: held " << before.heldBytes << " -> " << after.heldBytes
                << ", peak " << before.peakBytes << " -> " << after.peakBytes << "\n";
    }
  }
  if (!cca::Engine::CudaAvailable())
  {
    ExpectThrow(
      "Backend::Cuda without a usable device",
      [&] {
        cca::Engine  e;
        cca::Options o;
        o.backend = cca::Backend::Cuda;
        e.Run(good(), o);
      },
      cca::Error::Kind::NoDevice);
  }
  std::cout << "validation checks done\n";
}

} // namespace

int
main(int argc, char * argv[])
{
  if (argc != 3)
  {
    std::cerr << "usage: " << argv[0] << " oracle|large|exactness|validation cpu|cuda|auto\n";
    return 2;
  }
  const std::string suite = argv[1];
  cca::Backend      backend = cca::Backend::Cpu;
  if (!SelectBackend(argv[2], backend))
  {
    std::cerr << "unknown backend " << argv[2] << "\n";
    return 2;
  }
  if (backend == cca::Backend::Cuda && !cca::Engine::CudaAvailable())
  {
    std::cout << "no usable CUDA device (compiled in: " << cca::Engine::CudaCompiledIn() << "): skipped\n";
    return SkipReturnCode;
  }
  const auto start = std::chrono::steady_clock::now();
  if (suite == "oracle")
  {
    OracleSuite(backend);
  }
  else if (suite == "large")
  {
    LargeSuite(backend);
  }
  else if (suite == "exactness")
  {
    ExactnessSuite(backend);
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
  std::cout << suite << " on " << argv[2] << ": " << g_Failures << " failing case(s), " << seconds << " s\n";
  return g_Failures == 0 ? 0 : 1;
}
