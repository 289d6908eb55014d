// End-to-end benchmark of the ITK filter on the papers' random-image protocol
// (see RandomImages.h), side by side with ITK 5.2.1's CPU
// BinaryImageToShapeLabelMapFilter on the same images in the same run.
//
// Rows per image: ITK's filter (the reference), then
// itk::CudaLabelStatisticsImageFilter with Backend Auto (CUDA on a GPU machine)
// and with Backend CPU. Time = wall time of Update() (host to device, compute,
// device to host, LabelMap construction), median of --reps after --warmup.
// Both filters compute the same attributes: perimeter on, Feret diameter and
// oriented bounding box off. Each of our outputs is checked against ITK's:
// same number of objects, same NumberOfPixels and BoundingBox per label.
// Mismatches are printed and written to the JSON; the exit status is 1 then.
//
// Usage: cca_filter_benchmark [--quick] [--size N] [--reps R] [--warmup W]
//                             [--g G] [--density D] [--connectivity face|full|both]
//                             [--no-itk] [--json FILE]
#include "JsonText.h"
#include "RandomImages.h"
#include "WallClock.h"

#include "itkBinaryImageToShapeLabelMapFilter.h"
#include "itkCudaLabelStatisticsImageFilter.h"
#include "itkImage.h"
#include "itkMultiThreaderBase.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace
{

using cca::benchmark::JsonString;

using ImageType = itk::Image<unsigned char, 2>;
using OursType = itk::CudaLabelStatisticsImageFilter<ImageType>;
using ItkType = itk::BinaryImageToShapeLabelMapFilter<ImageType>;
using BackendEnum = itk::CudaLabelStatisticsEnums::Backend;

struct Settings : ccabench::ProtocolOptions
{
  bool runItk = true;
};

struct Row
{
  std::string         impl; ///< "itk-cpu", "ours-auto", "ours-cpu"
  std::string         backendUsed;
  std::string         connectivity;
  ccabench::ImageCase image;
  std::int64_t        objects = 0;
  double              updateMs = 0; ///< median wall time of Update()
  double labelMapMs = 0;    ///< median of Update() minus the engine's total: LabelMap construction and ITK overhead
  cca::StageTimes stages{}; ///< medians of the engine's stage times (ours only)
  std::string     check = "reference"; ///< "match", "mismatch", "not checked" or "reference"
  std::int64_t    labelMismatches = 0;
  std::string     firstMismatch;
  std::string     error;
};

const char *
BackendText(BackendEnum b)
{
  return b == BackendEnum::CUDA ? "CUDA" : b == BackendEnum::CPU ? "CPU" : "Auto";
}

/** Times Update() of any filter; after() is called after each run with its wall time. */
template <typename TFilter, typename TAfter>
double
TimeUpdates(TFilter * filter, const Settings & s, TAfter after)
{
  std::vector<double> times;
  for (int i = 0; i < s.warmup + s.reps; ++i)
  {
    filter->Modified();
    const auto t0 = cca::benchmark::Clock::now();
    filter->Update();
    const double ms = cca::benchmark::MillisecondsSince(t0);
    if (i >= s.warmup)
    {
      times.push_back(ms);
      after(ms);
    }
  }
  return ccabench::Median(times);
}

/** Same objects, NumberOfPixels and BoundingBox per label as ITK's output. */
template <typename TOurs, typename TReference>
void
Compare(const TOurs * ours, const TReference * reference, Row & row)
{
  std::int64_t mismatches = 0;
  auto         note = [&](const std::string & what) {
    if (mismatches++ == 0)
      row.firstMismatch = what;
  };
  if (ours->GetNumberOfLabelObjects() != reference->GetNumberOfLabelObjects())
  {
    note("object count " + std::to_string(ours->GetNumberOfLabelObjects()) + " vs ITK " +
         std::to_string(reference->GetNumberOfLabelObjects()));
  }
  for (typename TOurs::ConstIterator it(ours); !it.IsAtEnd(); ++it)
  {
    const auto label = it.GetLabel();
    if (!reference->HasLabel(label))
    {
      note("label " + std::to_string(label) + " missing in ITK's output");
      continue;
    }
    const auto * a = it.GetLabelObject();
    const auto * b = reference->GetLabelObject(label);
    if (a->GetNumberOfPixels() != b->GetNumberOfPixels() || a->GetBoundingBox() != b->GetBoundingBox())
    {
      std::ostringstream what;
      what << "label " << label << ": " << a->GetNumberOfPixels() << " pixels, box " << a->GetBoundingBox().GetIndex()
           << a->GetBoundingBox().GetSize() << " vs ITK " << b->GetNumberOfPixels() << ", "
           << b->GetBoundingBox().GetIndex() << b->GetBoundingBox().GetSize();
      note(what.str());
    }
  }
  row.labelMismatches = mismatches;
  row.check = mismatches == 0 ? "match" : "mismatch";
}

void
WriteJson(const std::string &              file,
          const Settings &                 s,
          const std::vector<Row> &         rows,
          const std::vector<std::string> & summary,
          int                              mismatchedImages)
{
  std::ofstream out(file);
  out << "{\n  \"program\": \"cca_filter_benchmark\",\n  \"size\": " << s.size << ",\n  \"reps\": " << s.reps
      << ",\n  \"warmup\": " << s.warmup
      << ",\n  \"itkThreads\": " << itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads()
      << ",\n  \"cudaAvailable\": " << (OursType::IsCudaAvailable() ? "true" : "false")
      << ",\n  \"mismatchedRows\": " << mismatchedImages << ",\n  \"summary\": [\n";
  for (std::size_t i = 0; i < summary.size(); ++i)
    out << "    " << summary[i] << (i + 1 < summary.size() ? ",\n" : "\n");
  out << "  ],\n  \"measurements\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i)
  {
    const Row & r = rows[i];
    out << "    {\"impl\": \"" << r.impl << "\", \"backendUsed\": \"" << r.backendUsed << "\", \"connectivity\": \""
        << r.connectivity << "\", \"g\": " << (r.image.allForeground ? 0 : r.image.g)
        << ", \"density\": " << r.image.density << ", \"allForeground\": " << (r.image.allForeground ? "true" : "false")
        << ", \"objects\": " << r.objects << ", \"updateMs\": " << r.updateMs
        << ", \"gpixPerS\": " << (r.updateMs > 0 ? s.size * s.size / (r.updateMs * 1e6) : 0)
        << ", \"labelMapMs\": " << r.labelMapMs << ", \"uploadMs\": " << r.stages.uploadMs
        << ", \"labelMs\": " << r.stages.labelMs << ", \"featuresMs\": " << r.stages.featuresMs
        << ", \"downloadMs\": " << r.stages.downloadMs << ", \"engineTotalMs\": " << r.stages.totalMs
        << ", \"check\": \"" << r.check << "\", \"labelMismatches\": " << r.labelMismatches
        << ", \"firstMismatch\": " << JsonString(r.firstMismatch) << ", \"error\": " << JsonString(r.error) << "}"
        << (i + 1 < rows.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
}

/** Averages over density per (connectivity, implementation, granularity), as the README explains. */
std::vector<std::string>
Summarize(const std::vector<Row> & rows, const std::vector<bool> & fullyConnected, double pixels, bool print)
{
  std::vector<std::string> summary;
  for (const bool full : fullyConnected)
  {
    const std::string conn = full ? "full" : "face";
    for (const std::string impl : { "itk-cpu", "ours-auto", "ours-cpu" })
    {
      std::ostringstream line;
      line << "{\"connectivity\": \"" << conn << "\", \"impl\": \"" << impl << "\"";
      bool any = false;
      for (const std::string key : { "g1", "g4", "g16", "all" })
      {
        ccabench::Average update, kernel;
        for (const Row & r : rows)
        {
          if (r.impl != impl || r.connectivity != conn || r.image.Key() != key || !r.error.empty())
            continue;
          update.Add(pixels, r.updateMs);
          if (impl != "itk-cpu")
            kernel.Add(pixels, std::max(1e-6, r.stages.labelMs + r.stages.featuresMs));
        }
        if (update.count == 0)
          continue;
        any = true;
        line << ", \"" << key << "GpixPerS\": " << update.Mean() << ", \"" << key
             << "GpixPerSTimeWeighted\": " << update.TimeWeighted(pixels);
        if (kernel.count)
          line << ", \"" << key << "KernelGpixPerS\": " << kernel.Mean() << ", \"" << key
               << "KernelGpixPerSTimeWeighted\": " << kernel.TimeWeighted(pixels);
        if (print)
          std::printf("== %s %s %s: Update() %.4f Gpix/s (mean over density; %.4f pixels/summed time)\n",
                      conn.c_str(),
                      impl.c_str(),
                      key.c_str(),
                      update.Mean(),
                      update.TimeWeighted(pixels));
      }
      line << "}";
      if (any)
        summary.push_back(line.str());
    }
  }
  return summary;
}

} // namespace

int
main(int argc, char * argv[])
{
  Settings s;
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    auto              next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string("0"); };
    if (arg == "--quick")
    {
      s.size = 512;
      s.reps = 3;
      s.warmup = 1;
      s.densityStep = 0.2;
    }
    else if (ccabench::ParseProtocolOption(arg, next, s))
      continue;
    else if (arg == "--no-itk")
      s.runItk = false;
    else
    {
      std::cerr << "usage: " << argv[0]
                << " [--quick] [--size N] [--reps R] [--warmup W] [--g G] [--density D]"
                   " [--connectivity face|full|both] [--no-itk] [--json FILE]\n";
      return 2;
    }
  }

  std::vector<bool> fullyConnected;
  if (s.connectivity != "full")
    fullyConnected.push_back(false);
  if (s.connectivity != "face")
    fullyConnected.push_back(true);

  auto image = ImageType::New();
  {
    ImageType::RegionType region;
    region.SetSize({ { static_cast<itk::SizeValueType>(s.size), static_cast<itk::SizeValueType>(s.size) } });
    image->SetRegions(region);
    image->Allocate();
  }
  unsigned char * const buffer = image->GetBufferPointer();

  // One filter object per row, kept across images: the engine reuses its buffers.
  auto itkFilter = ItkType::New();
  itkFilter->SetInput(image);
  itkFilter->SetInputForegroundValue(1);
  itkFilter->SetComputePerimeter(true);
  itkFilter->SetComputeFeretDiameter(false);
  itkFilter->SetComputeOrientedBoundingBox(false);
  struct Ours
  {
    std::string       impl;
    BackendEnum       backend;
    OursType::Pointer filter;
  };
  std::vector<Ours> ours = { { "ours-auto", BackendEnum::Auto, OursType::New() },
                             { "ours-cpu", BackendEnum::CPU, OursType::New() } };
  for (auto & o : ours)
  {
    o.filter->SetInput(image);
    o.filter->SetInputForegroundValue(1);
    o.filter->SetComputePerimeter(true);
    o.filter->SetComputeFeretDiameter(false);
    o.filter->SetComputeOrientedBoundingBox(false);
    o.filter->SetBackend(o.backend);
  }

  std::printf("%lldx%lld uint8, median of %d after %d warm-up, ITK threads %u, CUDA %s\n",
              static_cast<long long>(s.size),
              static_cast<long long>(s.size),
              s.reps,
              s.warmup,
              itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads(),
              OursType::IsCudaAvailable() ? "available" : "not available");
  std::printf("%-9s %-5s %-4s %3s %5s %9s %10s %9s %9s %9s %10s %s\n",
              "impl",
              "conn",
              "bk",
              "g",
              "d",
              "objects",
              "update ms",
              "engine",
              "kernel",
              "labelmap",
              "Gpix/s",
              "check");

  const auto                cases = ccabench::ProtocolCases(s.densityStep, s.onlyG, s.onlyDensity);
  const double              pixels = static_cast<double>(s.size) * static_cast<double>(s.size);
  std::vector<std::uint8_t> pixelsBuffer;
  std::vector<Row>          rows;
  int                       mismatchedRows = 0;
  for (const bool full : fullyConnected)
  {
    const std::string conn = full ? "full" : "face";
    itkFilter->SetFullyConnected(full);
    for (auto & o : ours)
      o.filter->SetFullyConnected(full);
    for (const auto & c : cases)
    {
      ccabench::MakeImage(s.size, c, pixelsBuffer);
      std::copy(pixelsBuffer.begin(), pixelsBuffer.end(), buffer);
      image->Modified();

      auto print = [&](const Row & r) {
        std::printf("%-9s %-5s %-4s %3s %5.2f %9lld %10.2f %9.3f %9.3f %9.2f %10.4f %s%s%s\n",
                    r.impl.c_str(),
                    conn.c_str(),
                    r.backendUsed.c_str(),
                    c.GName().c_str(),
                    c.density,
                    static_cast<long long>(r.objects),
                    r.updateMs,
                    r.stages.totalMs,
                    r.stages.labelMs + r.stages.featuresMs,
                    r.labelMapMs,
                    r.updateMs > 0 ? pixels / (r.updateMs * 1e6) : 0.0,
                    r.check.c_str(),
                    r.firstMismatch.empty() ? "" : ": ",
                    r.firstMismatch.c_str());
        std::fflush(stdout);
      };

      bool haveReference = false;
      if (s.runItk)
      {
        Row r;
        r.impl = "itk-cpu";
        r.backendUsed = "CPU";
        r.connectivity = conn;
        r.image = c;
        try
        {
          r.updateMs = TimeUpdates(itkFilter.GetPointer(), s, [](double) {});
          r.objects = static_cast<std::int64_t>(itkFilter->GetOutput()->GetNumberOfLabelObjects());
          haveReference = true;
        }
        catch (const std::exception & e)
        {
          r.error = e.what();
          r.check = "not checked";
        }
        print(r);
        rows.push_back(r);
      }
      for (auto & o : ours)
      {
        Row r;
        r.impl = o.impl;
        r.connectivity = conn;
        r.image = c;
        try
        {
          std::vector<double> upload, label, features, download, total, labelMap;
          r.updateMs = TimeUpdates(o.filter.GetPointer(), s, [&](double ms) {
            const cca::StageTimes & t = o.filter->GetStageTimes();
            upload.push_back(t.uploadMs);
            label.push_back(t.labelMs);
            features.push_back(t.featuresMs);
            download.push_back(t.downloadMs);
            total.push_back(t.totalMs);
            labelMap.push_back(ms - t.totalMs);
          });
          r.stages.uploadMs = ccabench::Median(upload);
          r.stages.labelMs = ccabench::Median(label);
          r.stages.featuresMs = ccabench::Median(features);
          r.stages.downloadMs = ccabench::Median(download);
          r.stages.totalMs = ccabench::Median(total);
          r.labelMapMs = ccabench::Median(labelMap);
          r.backendUsed = BackendText(o.filter->GetBackendUsed());
          r.objects = static_cast<std::int64_t>(o.filter->GetOutput()->GetNumberOfLabelObjects());
          if (haveReference)
            Compare(o.filter->GetOutput(), itkFilter->GetOutput(), r);
          else
            r.check = "not checked";
        }
        catch (const std::exception & e)
        {
          r.error = e.what();
          r.check = "error";
        }
        if (r.check == "mismatch" || r.check == "error")
          ++mismatchedRows;
        print(r);
        if (!r.error.empty())
          std::printf("  error: %s\n", r.error.c_str());
        rows.push_back(r);
      }
      // Rewritten after each image: a run cut short still leaves its rows.
      if (!s.json.empty())
        WriteJson(s.json, s, rows, Summarize(rows, fullyConnected, pixels, false), mismatchedRows);
    }
  }

  const auto summary = Summarize(rows, fullyConnected, pixels, true);
  if (mismatchedRows)
    std::printf("MISMATCH: %d rows of ours differ from ITK (see the check column)\n", mismatchedRows);
  if (!s.json.empty())
    WriteJson(s.json, s, rows, summary, mismatchedRows);
  return mismatchedRows ? 1 : 0;
}
