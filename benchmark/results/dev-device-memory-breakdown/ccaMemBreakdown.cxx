#include "EmulatedBackend.h"
#include "cca/Engine.h"
#include "cca/RandomImages.h"
#include <cstdio>
#include <cstdlib>
#include <string>
int
main(int argc, char ** argv)
{
  const int          dim = std::atoi(argv[1]);
  const std::int64_t n = std::atoll(argv[2]);
  const double       d = std::atof(argv[3]);
  const bool         full = std::string(argv[4]) == "full";
  const int          g = argc > 5 ? std::atoi(argv[5]) : 1;
  const std::int64_t nz = dim == 3 ? n : 1;
  auto               img = cca::RandomBlockImage(n, n, nz, d, g, 1000 * g + static_cast<int>(d * 10 + 0.5));
  std::int64_t       size[3] = { n, n, nz };
  auto               view = emulation::ByteImageView(img, dim, size);
  cca::Options       o;
  o.connectivity = full ? cca::Connectivity::Full : cca::Connectivity::Face;
  o.backend = cca::Backend::Cuda;
  emulation::Backend b;
  cca::Result        r;
  b.Run(view, o, r);
  std::fprintf(stderr,
               "DONE pixels %lld components %lld runs %lld\n",
               (long long)(n * n * nz),
               (long long)r.componentCount,
               (long long)r.runs.size());
}
