// The benchmarks write their results as JSON by hand (no JSON library is a
// dependency); this quotes a string for it.
#ifndef cca_benchmark_JsonText_h
#define cca_benchmark_JsonText_h

#include <string>

namespace cca::benchmark
{

/** text as a JSON string literal: quotes and backslashes escaped, line breaks
 *  as spaces (names and messages only; no other control characters occur). */
inline std::string
JsonString(const std::string & text)
{
  std::string out = "\"";
  for (char c : text)
  {
    if (c == '"' || c == '\\')
    {
      out += '\\';
    }
    out += (c == '\n' ? ' ' : c);
  }
  return out + "\"";
}

} // namespace cca::benchmark

#endif
