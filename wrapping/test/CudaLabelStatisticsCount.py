"""Counts the components of a small image with the wrapped filter and with
ITK's BinaryImageToShapeLabelMapFilter; both must agree."""
import sys

import itk

ImageType = itk.Image[itk.UC, 2]
image = ImageType.New()
image.SetRegions([32, 24])
image.Allocate()
image.FillBuffer(0)
# 12 squares of 2x2 pixels, 4 pixels apart.
for j in range(3):
    for i in range(4):
        for y in range(2):
            for x in range(2):
                image.SetPixel([8 * i + x + 1, 8 * j + y + 1], 255)

LabelMapType = itk.LabelMap[itk.StatisticsLabelObject[itk.UL, 2]]
ours = itk.CudaLabelStatisticsImageFilter[ImageType, LabelMapType].New(Input=image)
ours.Update()
reference = itk.BinaryImageToShapeLabelMapFilter[ImageType, LabelMapType].New(Input=image)
reference.Update()

found = ours.GetOutput().GetNumberOfLabelObjects()
expected = reference.GetOutput().GetNumberOfLabelObjects()
print(f"components: {found} (BinaryImageToShapeLabelMapFilter: {expected})")
sys.exit(0 if found == expected == 12 else 1)
