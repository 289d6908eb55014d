// The choice parsers of Choices.h: a table of names for each choice, so that
// the ValueError can list the names the caller may give.
#include "Choices.h"

#include "Errors.h"

#include <cctype>
#include <cstddef>
#include <utility>

namespace ccapython
{
namespace
{

/** The value of `choices` named `name`; else ValueError: "<what> must be 'a',
 *  'b' or 'c', not '<name>'". */
template <typename T, std::size_t N>
T
ChoiceOf(const std::string & name, const char * what, const std::pair<const char *, T> (&choices)[N])
{
  std::string names;
  for (std::size_t i = 0; i < N; ++i)
  {
    if (name == choices[i].first)
    {
      return choices[i].second;
    }
    names += std::string(i == 0 ? "" : (i + 1 == N ? " or " : ", ")) + "'" + choices[i].first + "'";
  }
  ThrowValue(std::string(what) + " must be " + names + ", not '" + name + "'");
}

} // namespace

cca::Backend
BackendOf(const std::string & name)
{
  static constexpr std::pair<const char *, cca::Backend> backends[] = { { "auto", cca::Backend::Auto },
                                                                        { "cpu", cca::Backend::Cpu },
                                                                        { "cuda", cca::Backend::Cuda } };
  return ChoiceOf(name, "backend", backends);
}

cca::Algorithm
AlgorithmOf(const std::string & name)
{
  auto lower = [](std::string s) {
    for (char & c : s)
    {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return s;
  };
  for (const cca::Algorithm algorithm : cca::AllAlgorithms)
  {
    if (lower(cca::AlgorithmName(algorithm)) == lower(name))
    {
      return algorithm;
    }
  }
  ThrowValue("unknown algorithm '" + name + "'");
}

cca::Objects
ObjectsOf(const std::string & name)
{
  static constexpr std::pair<const char *, cca::Objects> objects[] = {
    { "components", cca::Objects::ForegroundComponents },
    { "label_values", cca::Objects::LabelValues },
    { "label_value_components", cca::Objects::LabelValueComponents },
  };
  return ChoiceOf(name, "objects", objects);
}

} // namespace ccapython
