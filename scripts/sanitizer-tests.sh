#!/usr/bin/env bash
# The engine, the emulated CUDA host sequence and the ITK filter's tests under
# sanitizers, CPU only (no GPU code runs here):
#   build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer
#   build-tsan/  ThreadSanitizer
# Modes:
#   ci    (.ci/run) ASan+UBSan on the engine's oracle and validation suites,
#         TSan on the threaded CPU backend's oracle suite. Kept small: CI has
#         15 minutes for everything.
#   full  also the exactness suite, both emulation tests (the production CUDA
#         host sequence on emulated GPU threads) and the ITK filter under both
#         sanitizers: its differential tests against
#         ITK's filters and the label map test (ASan+UBSan), the threaded
#         LabelMap construction (TSan). The ITK test files take minutes each
#         to compile with sanitizers, which is why CI leaves them out.
# The emulation tests are not run under TSan: their kernels race on purpose,
# lock-free, as on the GPU. ITK 5.2's own ConstNeighborhoodIterator offsets a
# null pointer (UBSan's pointer-overflow, in ITK's header); that one report
# is suppressed by scripts/ubsan-suppressions.txt, every other one fails.
#   scripts/sanitizer-tests.sh [ci|full]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode=${1:-ci}
case "$mode" in ci | full) ;; *) echo "usage: $0 [ci|full]" >&2; exit 2 ;; esac
jobs=${JOBS:-2}
# -O1 keeps the tests quick; the ITK files compile faster at -O0.
itk_opt=$([[ "$mode" == full ]] && echo "-O0" || echo "-O1")
common=(-G Ninja -DCMAKE_BUILD_TYPE=Debug -DCCA_ENABLE_CUDA=OFF -DCCA_BUILD_BENCHMARK=OFF
        -DCMAKE_CXX_FLAGS_DEBUG="$itk_opt -g")
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$PWD/scripts/ubsan-suppressions.txt"
export ASAN_OPTIONS=detect_leaks=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

asan="-fsanitize=address,undefined -fno-sanitize-recover=all -fsanitize-recover=pointer-overflow -fno-omit-frame-pointer"
engine_tests='CudaLabelStatisticsEngine_(oracle|exactness)_cpu$|CudaLabelStatisticsEngine_validation$'
# The two emulation tests of the host sequence's strategies and compactions
# (the feature groups' emulation test is left to the plain build: one more
# large file to compile with sanitizers).
emulation_tests='CudaLabelStatistics(Strategy|TreeMerge)Emulation$'
if [[ "$mode" == full ]]; then
  cmake -S . -B build-asan "${common[@]}" -DCMAKE_CXX_FLAGS="$asan" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCCA_ITK_TEST_SUITES="Differential;LabelMapFilters" > /dev/null
  cmake --build build-asan -j "$jobs" --target ccaEngineOracleTest ccaStrategyEmulationTest ccaTreeMergeEmulationTest \
    CudaLabelStatisticsTestDriver
  ctest --test-dir build-asan --output-on-failure -j "$jobs" -R "$engine_tests|$emulation_tests|^itkCudaLabelStatistics"
  cmake -S . -B build-tsan "${common[@]}" -DCMAKE_CXX_FLAGS="-fsanitize=thread" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
    -DCCA_ITK_TEST_SUITES="LabelMapFilters" > /dev/null
  cmake --build build-tsan -j "$jobs" --target ccaEngineOracleTest CudaLabelStatisticsTestDriver
  ctest --test-dir build-tsan --output-on-failure -j "$jobs" -R 'CudaLabelStatisticsEngine_(oracle|exactness)_cpu$|LabelMapFilters'
else
  cmake -S . -B build-asan "${common[@]}" -DCMAKE_CXX_FLAGS="$asan" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCCA_BUILD_ITK=OFF > /dev/null
  cmake --build build-asan -j "$jobs" --target ccaEngineOracleTest
  ctest --test-dir build-asan --output-on-failure -j "$jobs" -R 'CudaLabelStatisticsEngine_(oracle_cpu|validation)$'
  cmake -S . -B build-tsan "${common[@]}" -DCMAKE_CXX_FLAGS="-fsanitize=thread" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
    -DCCA_BUILD_ITK=OFF > /dev/null
  cmake --build build-tsan -j "$jobs" --target ccaEngineOracleTest
  ctest --test-dir build-tsan --output-on-failure -j "$jobs" -R 'CudaLabelStatisticsEngine_oracle_cpu$'
fi
