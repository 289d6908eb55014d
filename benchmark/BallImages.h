// CT-like binary volumes for the end-to-end benchmark: balls of random
// radii at random centres (MT19937, uniform draws in a fixed order: radius,
// then centre x, y, z), drawn with several threads. Overlapping balls merge,
// so a mask has fewer components than balls. Plain C++, header only.
#ifndef ccabench_BallImages_h
#define ccabench_BallImages_h

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

namespace ccabench
{

struct Ball
{
  double radius;
  double centre[3]; ///< x, y, z in voxels
};

/** count balls with radii uniform in [minRadius, maxRadius] and centres
 *  uniform in the volume. */
inline std::vector<Ball>
RandomBalls(const std::int64_t (&size)[3], int count, double minRadius, double maxRadius, std::uint32_t seed)
{
  std::mt19937                           rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<Ball>                      balls(static_cast<std::size_t>(count));
  for (Ball & ball : balls)
  {
    ball.radius = minRadius + (maxRadius - minRadius) * unit(rng);
    for (int i = 0; i < 3; ++i)
    {
      ball.centre[i] = unit(rng) * static_cast<double>(size[i]);
    }
  }
  return balls;
}

/** Sets the voxels of image (size[0] x size[1] x size[2], x fastest, cleared
 *  first) within distance radius of ball i's centre to valueOf(i); where
 *  balls overlap, the later ball's value wins. */
template <class T, class ValueOf>
void
DrawBallsWith(const std::int64_t (&size)[3], const std::vector<Ball> & balls, T * image, ValueOf valueOf)
{
  const std::int64_t       plane = size[0] * size[1];
  const unsigned           threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t)
  {
    // Thread t owns slices [z0, z1): no two threads write the same voxel.
    const std::int64_t z0 = size[2] * t / threads;
    const std::int64_t z1 = size[2] * (t + 1) / threads;
    workers.emplace_back([&, z0, z1] {
      std::fill(image + z0 * plane, image + z1 * plane, T{ 0 });
      for (std::size_t i = 0; i < balls.size(); ++i)
      {
        const Ball &       b = balls[i];
        const T            on = valueOf(i);
        const double       r2 = b.radius * b.radius;
        const std::int64_t zLow =
          std::max<std::int64_t>(z0, static_cast<std::int64_t>(std::ceil(b.centre[2] - b.radius)));
        const std::int64_t zHigh =
          std::min<std::int64_t>(z1 - 1, static_cast<std::int64_t>(std::floor(b.centre[2] + b.radius)));
        for (std::int64_t z = zLow; z <= zHigh; ++z)
        {
          const double dz = static_cast<double>(z) - b.centre[2];
          const double rz2 = r2 - dz * dz;
          if (rz2 < 0)
            continue;
          const double       ry = std::sqrt(rz2);
          const std::int64_t yLow = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::ceil(b.centre[1] - ry)));
          const std::int64_t yHigh =
            std::min<std::int64_t>(size[1] - 1, static_cast<std::int64_t>(std::floor(b.centre[1] + ry)));
          for (std::int64_t y = yLow; y <= yHigh; ++y)
          {
            const double dy = static_cast<double>(y) - b.centre[1];
            const double ryz2 = rz2 - dy * dy;
            if (ryz2 < 0)
              continue;
            const double       rx = std::sqrt(ryz2);
            const std::int64_t xLow = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::ceil(b.centre[0] - rx)));
            const std::int64_t xHigh =
              std::min<std::int64_t>(size[0] - 1, static_cast<std::int64_t>(std::floor(b.centre[0] + rx)));
            if (xHigh >= xLow)
            {
              std::fill(image + z * plane + y * size[0] + xLow, image + z * plane + y * size[0] + xHigh + 1, on);
            }
          }
        }
      }
    });
  }
  for (auto & w : workers)
  {
    w.join();
  }
}

/** Sets the voxels within distance radius of a ball's centre to on (DrawBallsWith). */
template <class T>
void
DrawBalls(const std::int64_t (&size)[3], const std::vector<Ball> & balls, T * image, T on = T{ 1 })
{
  DrawBallsWith(size, balls, image, [on](std::size_t) { return on; });
}

} // namespace ccabench

#endif
