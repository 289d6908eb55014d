// The engine tests' check that goes on after a failure: EXPECT(condition)
// prints the condition and its line and counts it; a test's main returns
// Failures() != 0.
#ifndef cca_Expect_h
#define cca_Expect_h

#include <cstdio>

namespace cca_test
{

inline int &
Failures()
{
  static int failures = 0;
  return failures;
}

inline void
Expect(bool condition, const char * what, int line)
{
  if (!condition)
  {
    std::printf("FAILED (line %d): %s\n", line, what);
    ++Failures();
  }
}

} // namespace cca_test

#define EXPECT(condition) cca_test::Expect((condition), #condition, __LINE__)

#endif
