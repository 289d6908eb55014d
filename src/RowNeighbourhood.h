// Which rows of a 2D or 3D image neighbour a given row. A row is (y, z),
// numbered r = z * height + y; runs only ever touch runs of these rows.
#ifndef cca_RowNeighbourhood_h
#define cca_RowNeighbourhood_h

#include "cca/Types.h"

#include <cstdint>

namespace cca
{

class RowNeighbourhood
{
public:
  RowNeighbourhood(std::int64_t height, std::int64_t depth)
    : m_Height(height)
    , m_Depth(depth)
  {}

  /** Rows before r in raster order that can hold runs connected to r's runs:
   *  Face connectivity, the face neighbours (y-1, z) and (y, z-1); Full, also
   *  the edge neighbours (y-1, z-1) and (y+1, z-1). */
  template <typename Visit>
  void
  ForEachPrecedingRow(std::int64_t r, Connectivity connectivity, Visit && visit) const
  {
    const std::int64_t y = r % m_Height;
    const std::int64_t z = r / m_Height;
    if (y > 0)
    {
      visit(r - 1);
    }
    if (z > 0)
    {
      const std::int64_t below = r - m_Height;
      if (connectivity == Connectivity::Full && y > 0)
      {
        visit(below - 1);
      }
      visit(below);
      if (connectivity == Connectivity::Full && y + 1 < m_Height)
      {
        visit(below + 1);
      }
    }
  }

  /** Rows after r in raster order among r's 8 (y, z) neighbours, whatever the
   *  connectivity, with whether the step to them changes y and z. Every pair
   *  of neighbouring rows is visited exactly once this way. */
  template <typename Visit>
  void
  ForEachFollowingRow(std::int64_t r, Visit && visit) const
  {
    const std::int64_t y = r % m_Height;
    const std::int64_t z = r / m_Height;
    if (y + 1 < m_Height)
    {
      visit(r + 1, true, false);
    }
    if (z + 1 < m_Depth)
    {
      const std::int64_t above = r + m_Height;
      if (y > 0)
      {
        visit(above - 1, true, true);
      }
      visit(above, false, true);
      if (y + 1 < m_Height)
      {
        visit(above + 1, true, true);
      }
    }
  }

private:
  std::int64_t m_Height;
  std::int64_t m_Depth;
};

} // namespace cca

#endif
