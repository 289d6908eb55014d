# ITK remote-module description: copy this file into ITK's Modules/Remote/
# and configure ITK with -DModule_CudaLabelStatistics=ON. ITK then clones the
# module into Modules/Remote/CudaLabelStatistics and builds it with ITK (see
# docs/building.md, "Inside an ITK build tree").
#
# The repository and revision are cache entries so that a fork, a mirror or
# a local clone can be built the same way:
#   -DCudaLabelStatistics_GIT_REPOSITORY=<git URL of this repository>
#   -DCudaLabelStatistics_GIT_TAG=<commit, tag or branch>

set(CudaLabelStatistics_GIT_REPOSITORY "" CACHE STRING "Git URL of the CudaLabelStatistics repository")
set(CudaLabelStatistics_GIT_TAG "main" CACHE STRING "Commit, tag or branch of CudaLabelStatistics to build")
if(Module_CudaLabelStatistics AND CudaLabelStatistics_GIT_REPOSITORY STREQUAL "")
  message(FATAL_ERROR "Module_CudaLabelStatistics is ON but CudaLabelStatistics_GIT_REPOSITORY is empty: "
                      "give the git URL of the CudaLabelStatistics repository.")
endif()

itk_fetch_module(
  CudaLabelStatistics
  "GPU (CUDA) and CPU connected-component analysis: labels a binary image and
  returns an itk::LabelMap whose objects carry the attributes of
  BinaryImageToShapeLabelMapFilter. Algorithms after Lemaitre et al. 2021,
  Windisch et al. 2023, Cabaret et al. 2017 and Asad et al. (docs/references.md)."
  MODULE_COMPLIANCE_LEVEL 2
  GIT_REPOSITORY ${CudaLabelStatistics_GIT_REPOSITORY}
  GIT_TAG ${CudaLabelStatistics_GIT_TAG})
