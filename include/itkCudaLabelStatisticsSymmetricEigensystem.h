/*=========================================================================
 *
 *  Licensed under the Apache License, Version 2.0 (the "License");
 *  you may not use this file except in compliance with the License.
 *  You may obtain a copy of the License at
 *
 *         http://www.apache.org/licenses/LICENSE-2.0.txt
 *
 *  Unless required by applicable law or agreed to in writing, software
 *  distributed under the License is distributed on an "AS IS" BASIS,
 *  WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 *  See the License for the specific language governing permissions and
 *  limitations under the License.
 *
 *=========================================================================*/
#ifndef itkCudaLabelStatisticsSymmetricEigensystem_h
#define itkCudaLabelStatisticsSymmetricEigensystem_h

#include "vnl/algo/vnl_symmetric_eigensystem.h"
#include "v3p_netlib.h"

#include <cmath>
#include <limits>

namespace itk
{
namespace CudaLabelStatisticsDetail
{

/** What vnl_symmetric_eigensystem<double> gives ITK's label map filters for
 * a symmetric matrix: the eigenvalues in ascending order, and the
 * eigenvectors as the rows of axes (vnl's V transposed). It calls the
 * routine vnl calls (netlib's rs, EISPACK's tred2 and tql2) with the same
 * bytes, so the numbers are the same, but on the stack: vnl's wrapper takes
 * ten heap blocks a matrix, about a quarter of the LabelMap of 60000 small
 * balls on the H200 machine (10.2-11.8 -> 7.7-8.0 ms,
 * benchmark/results/h200-small-mask-stages). Where rs reports
 * no convergence it asks vnl, whose results ITK takes as they are. */
template <typename TMatrix, typename TVector>
void
SymmetricEigensystem(const TMatrix & symmetric, TVector & values, TMatrix & axes)
{
  constexpr unsigned int   Dimension = TMatrix::RowDimensions;
  const v3p_netlib_integer order = Dimension;
  const v3p_netlib_integer wantVectors = 1;
  v3p_netlib_integer       status = 0;
  double                   matrix[Dimension * Dimension]; // row-major, as vnl copies it (rs overwrites it)
  double                   eigenvalues[Dimension];
  double                   vectors[Dimension * Dimension]; // column k: the eigenvector of eigenvalues[k]
  double                   scratch1[Dimension];
  double                   scratch2[Dimension];
  bool                     finite = true;
  for (unsigned int i = 0; i < Dimension; ++i)
  {
    for (unsigned int j = 0; j < Dimension; ++j)
    {
      matrix[i * Dimension + j] = symmetric[i][j];
      finite = finite && std::isfinite(symmetric[i][j]);
    }
  }
  if (!finite)
  {
    // A NaN feature value's weighted moments: netlib's tql2 never converges
    // on them and vnl aborts the process (ITK 5.2 does); NaN says what they are.
    values.Fill(std::numeric_limits<double>::quiet_NaN());
    axes.Fill(std::numeric_limits<double>::quiet_NaN());
    return;
  }
  v3p_netlib_rs_(&order, &order, matrix, eigenvalues, &wantVectors, vectors, scratch1, scratch2, &status);
  if (status != 0)
  {
    vnl_symmetric_eigensystem<double> eigen{ symmetric.GetVnlMatrix().as_matrix() };
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      values[i] = eigen.D(i);
    }
    axes = eigen.V.transpose();
    return;
  }
  for (unsigned int i = 0; i < Dimension; ++i)
  {
    values[i] = eigenvalues[i];
    for (unsigned int j = 0; j < Dimension; ++j)
    {
      axes[i][j] = vectors[i * Dimension + j];
    }
  }
}

} // namespace CudaLabelStatisticsDetail
} // namespace itk

#endif
