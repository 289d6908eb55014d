#!/usr/bin/env bash
# The engine, the emulated CUDA host sequence and the ITK filter's tests under
# sanitizers, CPU only (no GPU code runs here):
#   build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer
#   build-tsan/  ThreadSanitizer
# Modes:
#   ci    (.ci/run) ASan+UBSan on the engine's oracle and validation suites,
#         both emulation tests of the host sequence's strategies and
#         compactions (the production CUDA host sequence on emulated GPU
#         threads; 3 random images per suite beside their fixed shapes,
#         no counting checks) and the ITK filter against the flood-fill oracle
#         (itkCudaLabelStatisticsOracleTest: the adapter, the threaded
#         LabelMap, a feature image, label-image input); TSan on the
#         threaded CPU backend's oracle suite, the CUDA backend's copy
#         workers (plain threads, cuda/CopyWorkers.h) and the ITK oracle test.
#   full  the emulation tests in full, and also the exactness suite, the
#         feature groups' emulation test and the ITK filter's differential
#         and label map tests (ASan+UBSan), the
#         exactness suite and the label map test (TSan). The ITK files with
#         ITK's filters as references take one to two minutes each to
#         compile with sanitizers, which is why CI leaves them out.
# Compiling is most of the time this takes. ci compiles the ASan+UBSan build
# at -O0 (its ITK test file and the emulated host sequence build 2x faster
# than at -O1, and its tests still run in seconds), full at -O1 (ITK's
# reference filters of the differential and label map tests run 10-20x
# slower at -O0); TSan stays at -O1 (its build takes half a minute). All
# with line tables (-g1).
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
common=(-G Ninja -DCMAKE_BUILD_TYPE=Debug -DCCA_ENABLE_CUDA=OFF -DCCA_BUILD_BENCHMARK=OFF)
asan_optimization="-O0 -g1"
tsan_optimization="-O1 -g1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$PWD/scripts/ubsan-suppressions.txt"
export ASAN_OPTIONS=detect_leaks=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

asan="-fsanitize=address,undefined -fno-sanitize-recover=all -fsanitize-recover=pointer-overflow -fno-omit-frame-pointer"
asan_targets=(ccaEngineOracleTest ccaCopyWorkersTest ccaStrategyEmulationTest ccaTreeMergeEmulationTest
              CudaLabelStatisticsTestDriver)
asan_tests='CudaLabelStatisticsEngine_(oracle_cpu|validation|copy_workers)$|CudaLabelStatistics(Strategy|TreeMerge)Emulation$|^itkCudaLabelStatistics'
tsan_tests='CudaLabelStatisticsEngine_(oracle_cpu|copy_workers)$|^itkCudaLabelStatistics'
asan_itk_suites="Oracle"
# The emulation tests under ASan: reduced runs in ci (CCA_EMULATION_TESTS_REDUCED:
# 3 random images per suite, the strategies' test without its counting
# checks; it took 134 s in full, 18 s so); complete in full mode.
asan_emulation_reduced=ON
tsan_itk_suites="Oracle"
if [[ "$mode" == full ]]; then
  asan_targets+=(ccaFeatureGroupsEmulationTest)
  asan_tests+='|CudaLabelStatisticsEngine_exactness_cpu$|CudaLabelStatisticsFeatureGroupsEmulation_'
  tsan_tests+='|CudaLabelStatisticsEngine_exactness_cpu$'
  asan_itk_suites="Oracle;Differential;LabelMapFilters"
  asan_optimization="-O1 -g1"
  asan_emulation_reduced=OFF
  tsan_itk_suites="Oracle;LabelMapFilters"
fi

cmake -S . -B build-asan "${common[@]}" -DCMAKE_CXX_FLAGS_DEBUG="$asan_optimization" -DCMAKE_CXX_FLAGS="$asan" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCCA_ITK_TEST_SUITES="$asan_itk_suites" -DCCA_EMULATION_TESTS_REDUCED="$asan_emulation_reduced" > /dev/null
cmake --build build-asan -j "$jobs" --target "${asan_targets[@]}"
# The ASan tests run while the TSan build compiles: their longest tests (the
# engine's oracle suite and the reduced strategies' emulation, 15-20 s
# each) leave the other core idle.
asan_log=build-asan/sanitizer-tests.log
ctest --test-dir build-asan --output-on-failure -j "$jobs" -R "$asan_tests" > "$asan_log" 2>&1 &
asan_tests_pid=$!
trap 'kill "$asan_tests_pid" 2>/dev/null || true' EXIT

cmake -S . -B build-tsan "${common[@]}" -DCMAKE_CXX_FLAGS_DEBUG="$tsan_optimization" -DCMAKE_CXX_FLAGS="-fsanitize=thread" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
  -DCCA_ITK_TEST_SUITES="$tsan_itk_suites" > /dev/null
cmake --build build-tsan -j "$jobs" --target ccaEngineOracleTest ccaCopyWorkersTest CudaLabelStatisticsTestDriver
# ITK's thread pool waits on its futures inside libITKCommon, which TSan does
# not instrument, so it reports the pool's own hand-over of each work unit as
# a race; ITK's platform threader joins its threads, which TSan sees.
ITK_GLOBAL_DEFAULT_THREADER=Platform ctest --test-dir build-tsan --output-on-failure -j "$jobs" -R "$tsan_tests"

asan_rc=0
wait "$asan_tests_pid" || asan_rc=$?
trap - EXIT
echo "== ASan+UBSan tests (build-asan):"
cat "$asan_log"
exit "$asan_rc"
