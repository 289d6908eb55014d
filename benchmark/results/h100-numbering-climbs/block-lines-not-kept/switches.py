import re
p='cuda/BlockLabeling.cuh'
s=open(p).read()
old='''    device.Launch("first pixel kernel",
                  BlocksFor(BlockLines(g), FirstPixelLines),
                  threads,
                  OfferFirstPixelsKernel<Index>,
                  g,
                  masks,
                  parent,
                  firstKey);'''
new='''    static const int offerLines = [] { const char * e = std::getenv("CCA_OFFER_LINES"); return e ? std::atoi(e) : FirstPixelLines; }();
    auto offerK = [&](auto kernel, int k) { device.Launch("first pixel kernel", BlocksFor(BlockLines(g), k), threads, kernel, g, masks, parent, firstKey); };
    switch (offerLines) { case 1: offerK(OfferFirstPixelsKernel<Index, 1>, 1); break; case 2: offerK(OfferFirstPixelsKernel<Index, 2>, 2); break;
      case 8: offerK(OfferFirstPixelsKernel<Index, 8>, 8); break; default: offerK(OfferFirstPixelsKernel<Index, 4>, 4); break; }'''
assert old in s
s=s.replace(old,new).replace('#include <cstdint>','#include <cstdint>\n#include <cstdlib>',1)
open(p,'w').write(s)
p='cuda/OutputStage.cuh'
s=open(p).read()
old='''      device.Launch("block label image kernel",
                    BlocksFor(BlockLines(l.grid), LabelImageLines),
                    LineThreads(l.grid),
                    BlockLabelImageKernel<Index, Label>,
                    l,
                    labels);'''
new='''      static const int labelLines = [] { const char * e = std::getenv("CCA_LABEL_LINES"); return e ? std::atoi(e) : LabelImageLines; }();
      auto labelK = [&](auto kernel, int k) { device.Launch("block label image kernel", BlocksFor(BlockLines(l.grid), k), LineThreads(l.grid), kernel, l, labels); };
      switch (labelLines) { case 1: labelK(BlockLabelImageKernel<Index, Label, 1>, 1); break; case 4: labelK(BlockLabelImageKernel<Index, Label, 4>, 4); break;
        default: labelK(BlockLabelImageKernel<Index, Label, 2>, 2); break; }'''
assert old in s
s=s.replace(old,new)
if '#include <cstdlib>' not in s: s=s.replace('#include <cstdint>','#include <cstdint>\n#include <cstdlib>',1)
open(p,'w').write(s)
