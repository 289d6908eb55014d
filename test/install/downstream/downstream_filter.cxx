// Uses the installed ITK filter on small generated images with known components.
#include "itkCudaLabelStatisticsImageFilter.h"

#include <iostream>

namespace
{

// 40 squares of 3x3 pixels plus a diagonal zigzag of 8 pixels on the last two
// rows: 48 components with face connectivity, 41 when fully connected.
using Image2 = itk::Image<unsigned char, 2>;
Image2::Pointer
MakeSquares()
{
  auto image = Image2::New();
  image->SetRegions(itk::Size<2>{ { 48, 32 } });
  image->Allocate(true);
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 8; ++i)
      for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x)
          image->SetPixel({ { 6 * i + 1 + x, 6 * j + 1 + y } }, 255);
  for (int x = 0; x < 8; ++x)
    image->SetPixel({ { x, 30 + (x % 2) } }, 255);
  return image;
}

int
Check(const char * what, itk::SizeValueType found, itk::SizeValueType expected)
{
  std::cout << what << ": " << found << " (expected " << expected << ")\n";
  return found == expected ? 0 : 1;
}

} // namespace

int
main()
{
  int failures = 0;
  try
  {
    using FilterType = itk::CudaLabelStatisticsImageFilter<Image2>;
    auto image = MakeSquares();
    auto filter = FilterType::New();
    filter->SetInput(image); // default foreground: 255, the pixel type's maximum
    filter->Update();
    failures += Check("2D face-connected components", filter->GetOutput()->GetNumberOfLabelObjects(), 48);
    const auto * first = filter->GetOutput()->GetNthLabelObject(0);
    failures += Check("pixels of the first component", first->GetNumberOfPixels(), 9);
    if (first->GetCentroid()[0] != 2.0 || first->GetCentroid()[1] != 2.0)
    {
      std::cerr << "centroid of the first component is " << first->GetCentroid() << ", expected [2, 2]\n";
      ++failures;
    }

    filter->FullyConnectedOn();
    filter->Update();
    failures += Check("2D fully connected components", filter->GetOutput()->GetNumberOfLabelObjects(), 41);

    // 3D: 27 cubes of 2x2x2 voxels.
    using Image3 = itk::Image<short, 3>;
    auto volume = Image3::New();
    volume->SetRegions(itk::Size<3>{ { 12, 12, 12 } });
    volume->Allocate(true);
    for (itk::IndexValueType z = 0; z < 12; ++z)
      for (itk::IndexValueType y = 0; y < 12; ++y)
        for (itk::IndexValueType x = 0; x < 12; ++x)
          if (x % 4 < 2 && y % 4 < 2 && z % 4 < 2)
            volume->SetPixel({ { x, y, z } }, 7);
    auto filter3 = itk::CudaLabelStatisticsImageFilter<Image3>::New();
    filter3->SetInput(volume);
    filter3->SetForegroundRule(itk::CudaLabelStatisticsEnums::ForegroundRule::NotEqualToBackgroundValue);
    filter3->SetInputBackgroundValue(0);
    filter3->FullyConnectedOn();
    filter3->Update();
    failures += Check("3D components", filter3->GetOutput()->GetNumberOfLabelObjects(), 27);
    failures +=
      Check("voxels of the last component", filter3->GetOutput()->GetNthLabelObject(26)->GetNumberOfPixels(), 8);
  }
  catch (const itk::ExceptionObject & error)
  {
    std::cerr << error << "\n";
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
