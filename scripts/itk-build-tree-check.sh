#!/usr/bin/env bash
# Builds and tests this module inside an ITK build tree, the way an ITK
# developer uses a remote module, in two variants:
#   1. the module in ITK's Modules/External/ (a link to this checkout);
#   2. the module fetched by ITK through CudaLabelStatistics.remote.cmake in
#      Modules/Remote/ (cloned from this checkout's committed HEAD).
# Each: configure ITK with the module only, build the module and its tests,
# run `ctest -R CudaLabelStatistics` (GPU tests skip without a GPU), install
# ITK, and build and run a project using find_package(ITK COMPONENTS
# CudaLabelStatistics) against the build tree (a ctest) and against the
# install.
#
#   scripts/itk-build-tree-check.sh ITK_SOURCE WORK_DIR [external|remote|both]
#
# ITK_SOURCE: a clone of https://github.com/InsightSoftwareConsortium/ITK at
# the release to check (v5.4.7 was checked: `git clone --branch v5.4.7 ...`).
# WORK_DIR gets build/ (one ITK build tree for both variants: the second
# reconfigures it, so only the module is rebuilt), install/ and the logs.
# The first build takes about 50 minutes on 2 cores.
set -euo pipefail
itk_source=$(realpath "$1")
work=$(realpath -m "$2")
variants=${3:-both}
module=$(realpath "$(dirname "${BASH_SOURCE[0]}")/..")
jobs=${JOBS:-2}
mkdir -p "$work"

configure() { # build-dir install-dir extra-args...
  local build=$1 install=$2
  shift 2
  cmake -S "$itk_source" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DITK_BUILD_DEFAULT_MODULES=OFF -DModule_CudaLabelStatistics=ON -DBUILD_TESTING=ON \
    -DBUILD_EXAMPLES=OFF -DITK_USE_KWSTYLE=OFF -DITK_USE_CLANG_FORMAT=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-90}" -DCMAKE_INSTALL_PREFIX="$install" "$@"
}

check() { # name build-dir install-dir
  local name=$1 build=$2 install=$3
  local log="$work/$name"
  # The module, its test drivers and the libraries they need (ITK's own
  # tests are not built: BUILD_TESTING=ON would build them all with `ninja`).
  local targets
  targets=$(ninja -C "$build" -t targets all | sed -n -E 's/^((CudaLabelStatistics|cca|itkCudaLabelStatistics)[A-Za-z0-9_-]*): .*/\1/p' |
            grep -v -E 'Clean$' | sort -u)
  ninja -C "$build" -j "$jobs" $targets 2>&1 | tee "$log-build.log"
  echo "warnings from the module's files:"
  grep -E 'warning:' "$log-build.log" | grep -E "CudaLabelStatistics|/cuda/|/src/|/include/(cca|itkCudaLabel)" || echo "  none"
  (cd "$build" && ctest -R CudaLabelStatistics --output-on-failure -j "$jobs") 2>&1 | tee "$log-ctest.log"
  # `ninja install` builds all of ITK's enabled targets first (its own tests too).
  ninja -C "$build" -j "$jobs" install > "$log-install.log"
  echo "installed to $install"
  cmake -DITK_DIR="$(dirname "$(find "$install" -name ITKConfig.cmake | head -1)")" \
    -DWORK_DIR="$work/$name-downstream-install" -DDOWNSTREAM_SOURCE_DIR="$module/test/install/itk-downstream" \
    -DGENERATOR=Ninja -DCXX_COMPILER="$(command -v c++)" -DC_COMPILER="$(command -v cc)" \
    -P "$module/test/install/RunItkDownstreamTest.cmake" 2>&1 | tee "$log-downstream-install.log"
  echo "$name: downstream project against the install passed"
}

if [[ "$variants" == external || "$variants" == both ]]; then
  rm -f "$itk_source/Modules/Remote/CudaLabelStatistics.remote.cmake"
  ln -sfn "$module" "$itk_source/Modules/External/CudaLabelStatistics"
  configure "$work/build" "$work/install"
  check external "$work/build" "$work/install"
  rm -f "$itk_source/Modules/External/CudaLabelStatistics"
fi
if [[ "$variants" == remote || "$variants" == both ]]; then
  rm -f "$itk_source/Modules/External/CudaLabelStatistics"
  cp "$module/CudaLabelStatistics.remote.cmake" "$itk_source/Modules/Remote/"
  configure "$work/build" "$work/install" \
    -DCudaLabelStatistics_GIT_REPOSITORY="file://$module" \
    -DCudaLabelStatistics_GIT_TAG="$(git -C "$module" rev-parse HEAD)" \
    -DModule_CudaLabelStatistics_GIT_TAG="$(git -C "$module" rev-parse HEAD)"
  check remote "$work/build" "$work/install"
  rm -f "$itk_source/Modules/Remote/CudaLabelStatistics.remote.cmake"
fi
