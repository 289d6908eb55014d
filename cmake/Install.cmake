# Install rules and the CMake package config, included at the end of the
# top-level CMakeLists.txt.
#
#   cmake --install <build> --prefix <prefix>
# installs
#   include/CudaLabelStatistics/          the filter and engine headers
#   lib/libCudaLabelStatisticsEngine.a    the engine (CPU and, if built, CUDA backend)
#   lib/libCudaLabelStatisticsLabelMaps.a the LabelMap builder's container access (with ITK)
#   bin/CudaLabelStatistics               the command-line program (with ITK)
#   lib/cmake/CudaLabelStatistics/        CudaLabelStatisticsConfig.cmake and targets
# so that a downstream project can
#   find_package(CudaLabelStatistics REQUIRED)
#   target_link_libraries(app PRIVATE CudaLabelStatistics::CudaLabelStatistics)  # the ITK filter
#   target_link_libraries(app PRIVATE CudaLabelStatistics::Engine)               # the engine alone
# The CUDA kernels are compiled into the engine archive and the CUDA runtime is
# linked statically, so a downstream project needs no CUDA compiler; the config
# only looks up the toolkit's static runtime library (FindCUDAToolkit).

set(CCA_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/CudaLabelStatistics
    CACHE STRING "Where CudaLabelStatisticsConfig.cmake is installed, relative to the prefix")
mark_as_advanced(CCA_INSTALL_CMAKEDIR)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/CudaLabelStatistics
        COMPONENT Development
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hxx")

set_target_properties(CudaLabelStatisticsEngine PROPERTIES EXPORT_NAME Engine)
set(_cca_exported_targets CudaLabelStatisticsEngine)

if(CCA_HAVE_ITK)
  # The installed config finds ITK itself, in the downstream project, so the
  # ITK libraries of this build (absolute paths among them, such as libz) must
  # not be written into the exported target: they are kept for the build tree only.
  get_target_property(_cca_links CudaLabelStatistics INTERFACE_LINK_LIBRARIES)
  set(_cca_build_links "")
  foreach(_cca_link IN LISTS _cca_links)
    if(_cca_link IN_LIST ITK_LIBRARIES)
      list(APPEND _cca_build_links "$<BUILD_INTERFACE:${_cca_link}>")
    else()
      list(APPEND _cca_build_links "${_cca_link}")
    endif()
  endforeach()
  set_property(TARGET CudaLabelStatistics PROPERTY INTERFACE_LINK_LIBRARIES "${_cca_build_links}")
  set_target_properties(CudaLabelStatistics PROPERTIES EXPORT_NAME CudaLabelStatistics)
  set_target_properties(CudaLabelStatisticsLabelMaps PROPERTIES EXPORT_NAME LabelMaps)
  list(APPEND _cca_exported_targets CudaLabelStatistics CudaLabelStatisticsLabelMaps)

  if(TARGET CudaLabelStatisticsApp)
    install(TARGETS CudaLabelStatisticsApp RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
  endif()
endif()

install(TARGETS ${_cca_exported_targets}
        EXPORT CudaLabelStatisticsTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
install(EXPORT CudaLabelStatisticsTargets
        NAMESPACE CudaLabelStatistics::
        DESTINATION ${CCA_INSTALL_CMAKEDIR}
        COMPONENT Development)

# Values the config needs to know about this build.
set(CCA_CONFIG_WITH_CUDA ${CCA_HAVE_CUDA})
set(CCA_CONFIG_WITH_ITK ${CCA_HAVE_ITK})
set(CCA_CONFIG_ITK_VERSION "")
if(CCA_HAVE_ITK)
  set(CCA_CONFIG_ITK_VERSION "${ITK_VERSION_MAJOR}.${ITK_VERSION_MINOR}")
endif()

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/CudaLabelStatisticsConfig.cmake.in
  ${PROJECT_BINARY_DIR}/CudaLabelStatisticsConfig.cmake
  INSTALL_DESTINATION ${CCA_INSTALL_CMAKEDIR})
# 0.x releases: only the same minor version is promised to be compatible.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/CudaLabelStatisticsConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/CudaLabelStatisticsConfig.cmake
              ${PROJECT_BINARY_DIR}/CudaLabelStatisticsConfigVersion.cmake
        DESTINATION ${CCA_INSTALL_CMAKEDIR}
        COMPONENT Development)
