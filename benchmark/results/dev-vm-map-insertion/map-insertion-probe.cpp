// How long one thread takes to put n objects, made beforehand, into a
// std::map<label, pointer> in increasing label order, the way
// itk::LabelMap::AddLabelObject does (operator[], which searches from the
// root for every label) and with the end as a hint (emplace_hint, which
// LabelMap's public interface cannot reach). The values are reference-counted
// pointers to objects of about the size of a StatisticsLabelObject's header,
// so each insertion also touches its object, as ITK's SmartPointer does.
// Build: g++ -O2 -std=c++17 map-insertion-probe.cpp -o probe; run: ./probe [n]
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

namespace
{
struct Object
{
  std::atomic<int> references{ 0 };
  char             payload[200];
};

class Pointer
{
public:
  Pointer() = default;
  explicit Pointer(Object * object)
    : m_Object(object)
  {
    Register();
  }
  Pointer(const Pointer & other)
    : m_Object(other.m_Object)
  {
    Register();
  }
  Pointer &
  operator=(const Pointer & other)
  {
    Pointer copy(other);
    std::swap(m_Object, copy.m_Object);
    return *this;
  }
  ~Pointer()
  {
    if (m_Object != nullptr)
    {
      m_Object->references.fetch_sub(1);
    }
  }

private:
  void
  Register()
  {
    if (m_Object != nullptr)
    {
      m_Object->references.fetch_add(1);
    }
  }
  Object * m_Object = nullptr;
};

template <class F>
double
NanosecondsPerObject(std::size_t n, F && insert)
{
  const auto start = std::chrono::steady_clock::now();
  insert();
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / n;
}
} // namespace

int
main(int argc, char * argv[])
{
  const std::size_t                    n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 11400000;
  std::vector<std::unique_ptr<Object>> objects(n);
  for (auto & o : objects)
  {
    o = std::make_unique<Object>();
  }
  for (int round = 0; round < 2; ++round)
  {
    {
      std::map<std::uint64_t, Pointer> map;
      const double                     ns = NanosecondsPerObject(n, [&] {
        for (std::size_t i = 0; i < n; ++i)
        {
          map[i + 1] = Pointer(objects[i].get());
        }
      });
      std::printf("round %d: operator[]          %6.1f ns an object (%zu objects)\n", round, ns, n);
    }
    {
      std::map<std::uint64_t, Pointer> map;
      const double                     ns = NanosecondsPerObject(n, [&] {
        for (std::size_t i = 0; i < n; ++i)
        {
          map.emplace_hint(map.end(), i + 1, Pointer(objects[i].get()));
        }
      });
      std::printf("round %d: emplace_hint(end)   %6.1f ns an object (%zu objects)\n", round, ns, n);
    }
  }
  return 0;
}
