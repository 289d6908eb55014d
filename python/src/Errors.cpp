// The module's exception types, the translation of the engine's errors into
// them and Python's own, and the throw helpers of the module's checks (Errors.h).
#include "Errors.h"

#include "cca/Types.h"

#include <exception>

namespace nb = nanobind;

namespace ccapython
{
namespace
{

PyObject * g_CudaError = nullptr;
PyObject * g_CudaUnavailableError = nullptr;

/** cca::Error kinds as the exceptions Python users expect. */
void
TranslateEngineError(const std::exception_ptr & error, void *)
{
  try
  {
    std::rethrow_exception(error);
  }
  catch (const cca::Error & e)
  {
    switch (e.GetKind())
    {
      case cca::Error::Kind::InvalidInput:
        PyErr_SetString(PyExc_ValueError, e.what());
        break;
      case cca::Error::Kind::Overflow:
        PyErr_SetString(PyExc_OverflowError, e.what());
        break;
      case cca::Error::Kind::OutOfMemory:
        PyErr_SetString(PyExc_MemoryError, e.what());
        break;
      case cca::Error::Kind::NoDevice:
        PyErr_SetString(g_CudaUnavailableError, e.what());
        break;
      case cca::Error::Kind::Cuda:
        PyErr_SetString(g_CudaError, e.what());
        break;
    }
  }
}

} // namespace

void
AddEngineErrors(nb::module_ & m)
{
  g_CudaError = PyErr_NewException("cudalabelstatistics.CudaError", PyExc_RuntimeError, nullptr);
  g_CudaUnavailableError = PyErr_NewException("cudalabelstatistics.CudaUnavailableError", g_CudaError, nullptr);
  m.attr("CudaError") = nb::handle(g_CudaError);
  m.attr("CudaUnavailableError") = nb::handle(g_CudaUnavailableError);
  nb::register_exception_translator(TranslateEngineError);
}

[[noreturn]] void
ThrowType(const std::string & message)
{
  throw nb::type_error(message.c_str());
}

[[noreturn]] void
ThrowValue(const std::string & message)
{
  throw nb::value_error(message.c_str());
}

} // namespace ccapython
