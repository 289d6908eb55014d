# cmake -P script: configures, builds and runs itk-downstream/ against the ITK
# given by ITK_DIR (a build tree or an install). Every step must succeed.
foreach(var ITK_DIR WORK_DIR DOWNSTREAM_SOURCE_DIR GENERATOR CXX_COMPILER C_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RunItkDownstreamTest.cmake needs -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})

function(run_step name)
  message(STATUS "${name}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  message("${output}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${name} failed (${result})")
  endif()
endfunction()

run_step(configure ${CMAKE_COMMAND} -S ${DOWNSTREAM_SOURCE_DIR} -B ${WORK_DIR} -G ${GENERATOR}
         -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_C_COMPILER=${C_COMPILER}
         -DITK_DIR=${ITK_DIR} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
run_step(build ${CMAKE_COMMAND} --build ${WORK_DIR} -j 2)
run_step(run-engine ${WORK_DIR}/downstream_engine)
run_step(run-filter ${WORK_DIR}/downstream_filter)
