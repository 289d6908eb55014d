// Eigenvalues and eigenvectors of a real symmetric 2x2 or 3x3 matrix.
#ifndef cca_SymmetricEigen_h
#define cca_SymmetricEigen_h

namespace cca
{

/** Decomposes the symmetric n x n matrix a (n = 2 or 3; only the lower
 *  triangle is read) into eigenvalues in ascending order and orthonormal
 *  eigenvectors, vectors[i] being the eigenvector of values[i].
 *
 *  The method is Householder tridiagonalization followed by the implicit QL
 *  algorithm with shifts (Martin, Reinsch and Wilkinson 1968; Bowdler et al.
 *  1968), in the order of operations of EISPACK's tred2 and tql2 (Smith et al.
 *  1976). That order decides the sign of each eigenvector; it is the one of
 *  vnl_symmetric_eigensystem, which ITK's ShapeLabelMapFilter uses, so the
 *  principal axes computed from it carry ITK's signs.
 *  Returns false when the QL iteration does not converge (30 sweeps per
 *  eigenvalue; does not happen for finite input). */
bool
SymmetricEigenDecomposition(int n, const double a[3][3], double values[3], double vectors[3][3]);

/** Principal moments (ascending) and axes (rows) of the symmetric n x n
 *  matrix a, as ITK's label map filters make them: the eigensystem above,
 *  the last axis multiplied by the axes' determinant so that they form a
 *  proper rotation. Throws cca::Error (InvalidInput) naming `what` when the
 *  decomposition does not converge (non-finite input). */
void
PrincipalMomentsAndRotation(int n, const double a[3][3], const char * what, double moments[3], double axes[3][3]);

} // namespace cca

#endif
