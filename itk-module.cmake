# Module description for builds inside an ITK build tree (ITK's module system:
# remote module or ITK_MODULE_CudaLabelStatistics). A build against an
# installed ITK (Debian's libinsighttoolkit5-dev) does not read this file: the
# top-level CMakeLists.txt uses find_package(ITK) there.

get_filename_component(_cca_module_dir "${CMAKE_CURRENT_LIST_FILE}" PATH)
set(DOCUMENTATION "GPU (CUDA) and CPU connected-component analysis: labels a binary image and computes, \
per component (or per label of a label image), the shape and intensity attributes of ITK's \
StatisticsLabelMapFilter, returned as an itk::LabelMap; label intensity statistics as LabelStatisticsImageFilter.")

itk_module(CudaLabelStatistics
  DEPENDS
    ITKCommon
    ITKLabelMap
  TEST_DEPENDS
    ITKTestKernel
    ITKConnectedComponents
    ITKLabelMap
    ITKImageIntensity
    ITKImageStatistics
    ITKIOImageBase
    ITKIONRRD
    ITKIOPNG
    ITKIOMeta
  DESCRIPTION
    "${DOCUMENTATION}"
  EXCLUDE_FROM_DEFAULT
  ENABLE_SHARED
)
