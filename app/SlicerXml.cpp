#include "SlicerXml.h"

namespace ccaapp
{

std::string
SlicerXmlDescription(const std::string & version)
{
  // What Slicer does with this description (SlicerExecutionModel's
  // ModuleDescriptionParser, Slicer's vtkSlicerCLIModuleLogic):
  // - names and longflags must match [A-Za-z_][A-Za-z0-9_]*: the flags are the
  //   program's camelCase option names;
  // - a boolean is passed as its bare flag when true and omitted when false, so
  //   every boolean defaults to false (hence noPerimeter);
  // - an integer or enumeration is always passed with its value, a string only
  //   when not empty: foregroundValue is a string whose empty default means the
  //   pixel type's largest value, the program's default;
  // - images are NRRD files in Slicer's temporary folder, the table a .csv
  //   file there, and --returnparameterfile comes first when a parameter is an
  //   output without flag or index (numberOfComponents).
  return R"(<?xml version="1.0" encoding="utf-8"?>
<executable>
  <category>Quantification</category>
  <title>Cuda Label Statistics</title>
  <description><![CDATA[Labels the connected components of a binary (or label) volume on an NVIDIA GPU or the CPU and measures each one: the attributes of ITK's ShapeLabelObject (size, centroid, bounding box, principal moments and axes, perimeter, roundness, elongation, flatness, optionally Feret diameter and oriented bounding box), written as a table with one row per component.]]></description>
  <version>)" +
         version + R"(</version>
  <documentation-url></documentation-url>
  <license>Apache 2.0</license>
  <contributor>CudaLabelStatistics contributors</contributor>
  <parameters>
    <label>Input and output</label>
    <description><![CDATA[Images and the component table]]></description>
    <image>
      <name>inputVolume</name>
      <label>Input volume</label>
      <channel>input</channel>
      <index>0</index>
      <description><![CDATA[Binary or label volume (an integer or real pixel type)]]></description>
    </image>
    <image type="label">
      <name>outputLabels</name>
      <label>Component labels</label>
      <channel>output</channel>
      <longflag>labels</longflag>
      <description><![CDATA[One label per connected component, numbered in raster order of each component's first voxel]]></description>
    </image>
    <table fileExtensions=".csv">
      <name>outputTable</name>
      <label>Component table</label>
      <channel>output</channel>
      <longflag>csv</longflag>
      <description><![CDATA[One row per component, one column per attribute]]></description>
    </table>
  </parameters>
  <parameters>
    <label>Foreground and connectivity</label>
    <description><![CDATA[Which voxels are foreground and which are neighbours]]></description>
    <string-enumeration>
      <name>foregroundRule</name>
      <label>Foreground rule</label>
      <longflag>foregroundRule</longflag>
      <description><![CDATA[not-background: every voxel different from the background value; equal: every voxel equal to the foreground value (NaN voxels are never foreground)]]></description>
      <default>not-background</default>
      <element>not-background</element>
      <element>equal</element>
    </string-enumeration>
    <integer>
      <name>backgroundValue</name>
      <label>Background value</label>
      <longflag>backgroundValue</longflag>
      <description><![CDATA[Used by the not-background rule]]></description>
      <default>0</default>
    </integer>
    <string>
      <name>foregroundValue</name>
      <label>Foreground value</label>
      <longflag>foregroundValue</longflag>
      <description><![CDATA[Used by the equal rule; empty: the largest value of the pixel type (255 for 8-bit volumes), as ITK's BinaryImageToShapeLabelMapFilter]]></description>
      <default></default>
    </string>
    <boolean>
      <name>fullyConnected</name>
      <label>Fully connected</label>
      <longflag>fullyConnected</longflag>
      <description><![CDATA[Neighbours across edges and corners too (26-connectivity in 3D, 8 in 2D); off: faces only (6 / 4)]]></description>
      <default>false</default>
    </boolean>
  </parameters>
  <parameters>
    <label>Objects and intensities</label>
    <description><![CDATA[What an object is, which objects are kept, and a volume measured in each]]></description>
    <image type="scalar">
      <name>featureImage</name>
      <label>Feature volume</label>
      <channel>input</channel>
      <longflag>featureImage</longflag>
      <description><![CDATA[Optional volume (CT, PET, MR; any scalar type) on the input's voxel grid whose values are measured in each object: Minimum, Maximum, Mean, Sum, StandardDeviation, Variance, Median, Skewness, Kurtosis, their indices, CenterOfGravity and the weighted principal moments, as ITK's StatisticsLabelMapFilter]]></description>
    </image>
    <boolean>
      <name>labelInput</name>
      <label>Input is a label map</label>
      <longflag>labelInput</longflag>
      <description><![CDATA[Each value of the (integer) input but the background value is one object, connected or not; its label is the value (column InputLabel)]]></description>
      <default>false</default>
    </boolean>
    <boolean>
      <name>splitLabels</name>
      <label>Split labels into components</label>
      <longflag>splitLabels</longflag>
      <description><![CDATA[Each connected component of each label value is one object (implies a label map input)]]></description>
      <default>false</default>
    </boolean>
    <integer>
      <name>minimumSize</name>
      <label>Minimum size (voxels)</label>
      <longflag>minimumSize</longflag>
      <description><![CDATA[Objects of fewer voxels are left out; 0: none]]></description>
      <default>0</default>
      <constraints>
        <minimum>0</minimum>
        <maximum>2147483647</maximum>
        <step>1</step>
      </constraints>
    </integer>
    <integer>
      <name>maximumSize</name>
      <label>Maximum size (voxels)</label>
      <longflag>maximumSize</longflag>
      <description><![CDATA[Objects of more voxels are left out; 0: no bound]]></description>
      <default>0</default>
      <constraints>
        <minimum>0</minimum>
        <maximum>2147483647</maximum>
        <step>1</step>
      </constraints>
    </integer>
    <double>
      <name>minimumPhysicalSize</name>
      <label>Minimum size (physical)</label>
      <longflag>minimumPhysicalSize</longflag>
      <description><![CDATA[Objects of a smaller volume (mm^3; area in 2D) are left out; 0: none]]></description>
      <default>0</default>
      <constraints>
        <minimum>0</minimum>
        <maximum>1e12</maximum>
        <step>1</step>
      </constraints>
    </double>
    <double>
      <name>maximumPhysicalSize</name>
      <label>Maximum size (physical)</label>
      <longflag>maximumPhysicalSize</longflag>
      <description><![CDATA[Objects of a larger volume are left out; 0: no bound]]></description>
      <default>0</default>
      <constraints>
        <minimum>0</minimum>
        <maximum>1e12</maximum>
        <step>1</step>
      </constraints>
    </double>
    <integer>
      <name>keepLargest</name>
      <label>Keep largest</label>
      <longflag>keepLargest</longflag>
      <description><![CDATA[Keep only this many of the largest objects (ties: the lower label); 0: all]]></description>
      <default>0</default>
      <constraints>
        <minimum>0</minimum>
        <maximum>2147483647</maximum>
        <step>1</step>
      </constraints>
    </integer>
    <boolean>
      <name>sortBySize</name>
      <label>Number by size</label>
      <longflag>sortBySize</longflag>
      <description><![CDATA[Label the objects 1, 2, ... by decreasing size, as ITK's RelabelComponentImageFilter]]></description>
      <default>false</default>
    </boolean>
  </parameters>
  <parameters advanced="true">
    <label>Attributes and backend</label>
    <description><![CDATA[Optional attributes and where they are computed]]></description>
    <boolean>
      <name>noPerimeter</name>
      <label>Skip perimeter</label>
      <longflag>noPerimeter</longflag>
      <description><![CDATA[Do not compute Perimeter, Roundness and PerimeterOnBorderRatio]]></description>
      <default>false</default>
    </boolean>
    <boolean>
      <name>feret</name>
      <label>Feret diameter</label>
      <longflag>feret</longflag>
      <description><![CDATA[Compute the Feret diameter (quadratic in the number of border voxels of a component)]]></description>
      <default>false</default>
    </boolean>
    <boolean>
      <name>orientedBoundingBox</name>
      <label>Oriented bounding box</label>
      <longflag>orientedBoundingBox</longflag>
      <description><![CDATA[Compute the oriented bounding box origin and size]]></description>
      <default>false</default>
    </boolean>
    <string-enumeration>
      <name>backend</name>
      <label>Backend</label>
      <longflag>backend</longflag>
      <description><![CDATA[auto: CUDA when a GPU is usable, else the CPU]]></description>
      <default>auto</default>
      <element>auto</element>
      <element>cuda</element>
      <element>cpu</element>
    </string-enumeration>
    <string-enumeration>
      <name>compression</name>
      <label>Label image compression</label>
      <longflag>compression</longflag>
      <description><![CDATA[zlib compression of the label image: none writes the raw labels (largest file); fast (zlib level 1) makes the file about 25 times smaller; small (level 6) about twice smaller again, and takes about twice as long to write; auto (fast) is as quick to write as none: the program deflates on every thread. .nii, .hdr and .vtk are never compressed]]></description>
      <default>auto</default>
      <element>auto</element>
      <element>none</element>
      <element>fast</element>
      <element>small</element>
    </string-enumeration>
  </parameters>
  <parameters>
    <label>Results</label>
    <description><![CDATA[Values returned to Slicer]]></description>
    <integer>
      <name>numberOfComponents</name>
      <label>Number of components</label>
      <channel>output</channel>
      <description><![CDATA[Number of connected components found]]></description>
      <default>0</default>
    </integer>
  </parameters>
</executable>
)";
}

} // namespace ccaapp
