// Errors as Python sees them: the engine's cca::Error as the exceptions Python
// users expect, and the TypeError and ValueError of this module's own checks.
#ifndef CudaLabelStatisticsPython_Errors_h
#define CudaLabelStatisticsPython_Errors_h

#include <nanobind/nanobind.h>

#include <string>

namespace ccapython
{

/** Adds cudalabelstatistics.CudaError and its subclass CudaUnavailableError
 *  to the module and translates every cca::Error a call lets through. */
void
AddEngineErrors(nanobind::module_ & m);

[[noreturn]] void
ThrowType(const std::string & message);

[[noreturn]] void
ThrowValue(const std::string & message);

} // namespace ccapython

#endif
