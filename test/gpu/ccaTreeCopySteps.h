// The tree merge compaction's guessed first copy, both ways, as the GPU test
// and the emulation test check it on a fresh backend (first guess 1024): a
// component count above the guess needs a second copy, the same count again
// does not, nor does a smaller one. The "many" image is a 200 x 200
// checkerboard (20000 components with face connectivity), the other one a
// random image of few components (200 x 200, d = 0.7, g = 4, seed 35).
#ifndef ccaTreeCopySteps_h
#define ccaTreeCopySteps_h

namespace ccatest
{

struct TreeCopyStep
{
  bool         manyComponents; ///< the checkerboard, else the random image
  bool         secondCopy;     ///< whether the run needs a second copy
  const char * what;
};

inline constexpr TreeCopyStep TreeCopySteps[] = { { true, true, "20000 components, first call (guess 1024)" },
                                                  { true, false, "the same again" },
                                                  { false, false, "fewer components" },
                                                  { true, true, "more again" },
                                                  { true, false, "the same again" } };

} // namespace ccatest

#endif
