// Calls a generic function with a value of the C++ type of a cca::PixelType,
// so each backend writes its per-type code once.
#ifndef cca_PixelTypeDispatch_h
#define cca_PixelTypeDispatch_h

#include "cca/Types.h"

#include <cstdint>
#include <string>

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
    case PixelType::Float32:
    case PixelType::Float64:
      break;
  }
  throw Error(Error::Kind::InvalidInput,
              std::string("the labeled image needs an integer pixel type, not ") + PixelTypeName(type));
}

/** The same over every pixel type a feature image may have, reals included. */
template <typename Function>
void
DispatchFeaturePixelType(PixelType type, Function && function)
{
  switch (type)
  {
    case PixelType::Float32:
      return function(float{});
    case PixelType::Float64:
      return function(double{});
    default:
      return DispatchPixelType(type, function);
  }
}

} // namespace cca

#endif
