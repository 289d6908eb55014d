// Uses the installed engine alone: a 5x4 image with three face-connected components.
#include "cca/Engine.h"

#include <cstdint>
#include <iostream>

int
main()
{
  const std::uint8_t pixels[] = {
    1, 1, 0, 0, 1, //
    0, 1, 0, 0, 1, //
    0, 0, 0, 1, 0, //
    1, 0, 0, 1, 0, //
  };
  cca::ImageView image;
  image.data = pixels;
  image.pixelType = cca::PixelType::UInt8;
  image.dimension = 2;
  image.size[0] = 5;
  image.size[1] = 4;
  cca::Options options; // foreground = non-zero, face connectivity, automatic backend

  cca::Engine       engine;
  const cca::Result result = engine.Run(image, options);
  std::cout << "engine: " << result.componentCount << " components on " << cca::BackendName(result.backendUsed) << "\n";
  // {(0,0),(1,0),(1,1)}, {(4,0),(4,1)}, {(3,2),(3,3)}, {(0,3)}
  if (result.componentCount != 4 || result.features[0].pixelCount != 3)
  {
    std::cerr << "expected 4 components, the first with 3 pixels\n";
    return 1;
  }
  return 0;
}
