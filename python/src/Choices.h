// The names the package passes for the engine's choices (backend=,
// algorithm=, objects=) as the engine's enums; ValueError for any other name.
#ifndef CudaLabelStatisticsPython_Choices_h
#define CudaLabelStatisticsPython_Choices_h

#include "cca/Types.h"

#include <string>

namespace ccapython
{

/** 'auto', 'cpu' or 'cuda'. */
cca::Backend
BackendOf(const std::string & name);

/** An algorithm's name (cca::AlgorithmName), in any case. */
cca::Algorithm
AlgorithmOf(const std::string & name);

/** 'components', 'label_values' or 'label_value_components'. */
cca::Objects
ObjectsOf(const std::string & name);

} // namespace ccapython

#endif
