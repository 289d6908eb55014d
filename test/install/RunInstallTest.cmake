# cmake -P script run by the install.downstream test. Every step must succeed.
foreach(var BUILD_DIR CONFIG WORK_DIR DOWNSTREAM_SOURCE_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RunInstallTest.cmake needs -D${var}=...")
  endif()
endforeach()
if(CONFIG STREQUAL "")
  set(CONFIG Release)
endif()

set(prefix ${WORK_DIR}/prefix)
set(downstream_build ${WORK_DIR}/downstream-build)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run_step name)
  message(STATUS "${name}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  message("${output}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${name} failed (${result})")
  endif()
  set(step_output "${output}" PARENT_SCOPE)
endfunction()

run_step(install ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${CONFIG})

# Only the prefix: nothing of the build tree may be needed.
run_step(configure ${CMAKE_COMMAND} -S ${DOWNSTREAM_SOURCE_DIR} -B ${downstream_build} -G ${GENERATOR}
         -DCMAKE_BUILD_TYPE=${CONFIG} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_C_COMPILER=${C_COMPILER}
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
         -DEXPECT_ITK=${EXPECT_ITK})
string(FIND "${step_output}" "CudaLabelStatistics_DIR=${prefix}/" found)
if(found EQUAL -1)
  message(FATAL_ERROR "the downstream project did not find CudaLabelStatistics in ${prefix}")
endif()

run_step(build ${CMAKE_COMMAND} --build ${downstream_build} --config ${CONFIG} -j 2)
run_step(run-engine ${downstream_build}/downstream_engine)
if(EXPECT_ITK)
  run_step(run-filter ${downstream_build}/downstream_filter)
  # The installed program runs from the prefix.
  run_step(run-program ${prefix}/bin/CudaLabelStatistics --default-size 64x48 --csv ${WORK_DIR}/table.csv)
  if(NOT EXISTS ${WORK_DIR}/table.csv)
    message(FATAL_ERROR "the installed program wrote no CSV")
  endif()
endif()
