// Calls a generic function with a value of the C++ type of a cca::PixelType,
// so each backend writes its per-type code once.
#ifndef cca_PixelTypeDispatch_h
#define cca_PixelTypeDispatch_h

#include "cca/Types.h"

#include <cstdint>

namespace cca
{

template <typename Function>
void
DispatchPixelType(PixelType type, Function && function)
{
  switch (type)
  {
    case PixelType::UInt8:
      return function(std::uint8_t{});
    case PixelType::Int8:
      return function(std::int8_t{});
    case PixelType::UInt16:
      return function(std::uint16_t{});
    case PixelType::Int16:
      return function(std::int16_t{});
    case PixelType::UInt32:
      return function(std::uint32_t{});
    case PixelType::Int32:
      return function(std::int32_t{});
    case PixelType::UInt64:
      return function(std::uint64_t{});
    case PixelType::Int64:
      return function(std::int64_t{});
  }
  throw Error(Error::Kind::InvalidInput, "unknown pixel type");
}

} // namespace cca

#endif
