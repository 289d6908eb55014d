#!/usr/bin/env bash
# The engine, the emulated CUDA host sequence and the ITK filter's tests under
# sanitizers, CPU only (no GPU code runs here):
#   build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer: the engine
#                oracle suites, both emulation tests, the ITK filter's
#                differential and label map tests;
#   build-tsan/  ThreadSanitizer: the threaded CPU backend (engine suites)
#                and the filter's threaded LabelMap construction.
# (The emulation tests are not run under TSan: their kernels race on purpose,
# lock-free, as on the GPU.) Any report fails the run. Used by .ci/run.
#   scripts/sanitizer-tests.sh [asan|tsan|both]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
which=${1:-both}
jobs=${JOBS:-2}
common=(-G Ninja -DCMAKE_BUILD_TYPE=Debug -DCCA_ENABLE_CUDA=OFF -DCCA_BUILD_BENCHMARK=OFF
        -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g")
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

if [[ "$which" == asan || "$which" == both ]]; then
  flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  cmake -S . -B build-asan "${common[@]}" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCCA_ITK_TEST_SUITES="Differential;LabelMapFilters" > /dev/null
  cmake --build build-asan -j "$jobs" --target ccaEngineOracleTest ccaStrategyEmulationTest ccaTreeMergeEmulationTest \
    CudaLabelStatisticsTestDriver
  ctest --test-dir build-asan --output-on-failure -j "$jobs" \
    -R 'CudaLabelStatisticsEngine_(oracle|large|exactness|validation)_?(cpu)?$|Emulation|^itkCudaLabelStatistics'
fi
if [[ "$which" == tsan || "$which" == both ]]; then
  cmake -S . -B build-tsan "${common[@]}" -DCMAKE_CXX_FLAGS="-fsanitize=thread" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
    -DCCA_ITK_TEST_SUITES="LabelMapFilters" > /dev/null
  cmake --build build-tsan -j "$jobs" --target ccaEngineOracleTest CudaLabelStatisticsTestDriver
  ctest --test-dir build-tsan --output-on-failure -j "$jobs" \
    -R 'CudaLabelStatisticsEngine_(oracle|exactness)_cpu$|LabelMapFilters'
fi
