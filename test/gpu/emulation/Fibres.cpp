#include "Fibres.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>

#if defined(__x86_64__) && defined(__ELF__) && !defined(CCA_EMULATION_PORTABLE_FIBRES)
#  define CCA_FIBRES_X86_64 1
#else
#  include <ucontext.h>
#endif

#if defined(__unix__) || defined(__APPLE__)
#  include <sys/mman.h>
#  include <unistd.h>
#  define CCA_FIBRES_MMAP 1
#endif

#if defined(__SANITIZE_ADDRESS__)
#  define CCA_FIBRES_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#  define CCA_FIBRES_TSAN 1
#endif
#if defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define CCA_FIBRES_ASAN 1
#  endif
#  if __has_feature(thread_sanitizer)
#    define CCA_FIBRES_TSAN 1
#  endif
#endif
#if defined(CCA_FIBRES_ASAN)
#  include <sanitizer/common_interface_defs.h>
#endif
#if defined(CCA_FIBRES_TSAN)
#  include <sanitizer/tsan_interface.h>
#endif

namespace emulation
{

namespace
{
/** The context a switch on this OS thread comes from (for the sanitizers). */
thread_local FibreContext * switchingFrom = nullptr;

[[noreturn]] void
Fail(const char * what)
{
  std::fprintf(stderr, "emulation: %s\n", what);
  std::abort();
}
} // namespace

#if defined(CCA_FIBRES_X86_64)
// Saves the callee-saved registers (System V), the SSE control word and the
// x87 control word on the current stack, stores the stack pointer in *save,
// and restores the same from the stack at load.
extern "C" void
cca_emulation_switch_stacks(void ** save, void * load);
// The first code a fibre runs: entry (r13) called with its argument (r12).
extern "C" void
cca_emulation_fibre_start();

asm(R"(
  .text
  .p2align 4
  .globl cca_emulation_switch_stacks
  .hidden cca_emulation_switch_stacks
  .type cca_emulation_switch_stacks, @function
cca_emulation_switch_stacks:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $16, %rsp
  stmxcsr 8(%rsp)
  fnstcw (%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr 8(%rsp)
  fldcw (%rsp)
  addq $16, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size cca_emulation_switch_stacks, .-cca_emulation_switch_stacks

  .p2align 4
  .globl cca_emulation_fibre_start
  .hidden cca_emulation_fibre_start
  .type cca_emulation_fibre_start, @function
cca_emulation_fibre_start:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size cca_emulation_fibre_start, .-cca_emulation_fibre_start
)");
#else
namespace
{
ucontext_t &
Native(FibreContext & context)
{
  if (context.native == nullptr)
  {
    context.native = new ucontext_t();
  }
  return *static_cast<ucontext_t *>(context.native);
}

/** makecontext passes int arguments only: the entry and its argument in halves. */
void
PortableStart(unsigned entryHigh, unsigned entryLow, unsigned argumentHigh, unsigned argumentLow)
{
  const auto entry = reinterpret_cast<void (*)(void *)>((std::uintptr_t{ entryHigh } << 32) | entryLow);
  auto *     argument = reinterpret_cast<void *>((std::uintptr_t{ argumentHigh } << 32) | argumentLow);
  entry(argument);
  Fail("a fibre returned from its entry function");
}
} // namespace
#endif

FibreStack::FibreStack(std::size_t bytes)
{
#if defined(CCA_FIBRES_MMAP)
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  m_Size = (bytes + page - 1) / page * page;
  m_MappingSize = m_Size + page;
  m_Mapping = mmap(nullptr, m_MappingSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m_Mapping == MAP_FAILED)
  {
    Fail("cannot map a fibre stack");
  }
  mprotect(m_Mapping, page, PROT_NONE); // an overflow faults instead of corrupting the next stack
  m_Usable = static_cast<char *>(m_Mapping) + page;
#else
  m_Size = bytes;
  m_MappingSize = bytes;
  m_Mapping = ::operator new(bytes);
  m_Usable = m_Mapping;
#endif
}

FibreStack::~FibreStack()
{
#if defined(CCA_FIBRES_MMAP)
  munmap(m_Mapping, m_MappingSize);
#else
  ::           operator delete(m_Mapping);
#endif
}

void
StartFibre(FibreContext & fibre, FibreStack & stack, void (*entry)(void *), void * argument)
{
  fibre.stackBottom = stack.Bottom();
  fibre.stackSize = stack.Size();
  fibre.sanitizerFakeStack = nullptr;
#if defined(CCA_FIBRES_TSAN)
  if (fibre.threadSanitizerFibre == nullptr)
  {
    fibre.threadSanitizerFibre = __tsan_create_fiber(0);
    fibre.ownsThreadSanitizerFibre = true;
  }
#endif
#if defined(CCA_FIBRES_X86_64)
  const auto top = (reinterpret_cast<std::uintptr_t>(stack.Bottom()) + stack.Size()) & ~std::uintptr_t{ 15 };
  // Nine words read by the switch (control words, r15 .. rbp, the return
  // address), placed so that the stack is 16-byte aligned at the call of entry.
  auto * frame = reinterpret_cast<std::uint64_t *>(top - 88);
  frame[0] = 0x037f; // x87 control word: the default
  frame[1] = 0x1f80; // MXCSR: the default
  frame[2] = 0;      // r15
  frame[3] = 0;      // r14
  frame[4] = reinterpret_cast<std::uint64_t>(entry);
  frame[5] = reinterpret_cast<std::uint64_t>(argument);
  frame[6] = 0; // rbx
  frame[7] = 0; // rbp
  frame[8] = reinterpret_cast<std::uint64_t>(&cca_emulation_fibre_start);
  frame[9] = 0; // a null return address above: the end of backtraces
  fibre.stackPointer = frame;
#else
  ucontext_t & context = Native(fibre);
  if (getcontext(&context) != 0)
  {
    Fail("getcontext failed");
  }
  context.uc_stack.ss_sp = stack.Bottom();
  context.uc_stack.ss_size = stack.Size();
  context.uc_link = nullptr;
  const auto e = reinterpret_cast<std::uintptr_t>(entry);
  const auto a = reinterpret_cast<std::uintptr_t>(argument);
  makecontext(&context,
              reinterpret_cast<void (*)()>(&PortableStart),
              4,
              static_cast<unsigned>(e >> 32),
              static_cast<unsigned>(e),
              static_cast<unsigned>(a >> 32),
              static_cast<unsigned>(a));
#endif
}

void
SwitchFibre(FibreContext & from, FibreContext & to, bool finished)
{
  switchingFrom = &from;
#if defined(CCA_FIBRES_ASAN)
  __sanitizer_start_switch_fiber(finished ? nullptr : &from.sanitizerFakeStack, to.stackBottom, to.stackSize);
#else
  (void)finished;
#endif
#if defined(CCA_FIBRES_TSAN)
  if (from.threadSanitizerFibre == nullptr)
  {
    from.threadSanitizerFibre = __tsan_get_current_fiber(); // the OS thread's own context
  }
  __tsan_switch_to_fiber(to.threadSanitizerFibre, 0);
#endif
#if defined(CCA_FIBRES_X86_64)
  cca_emulation_switch_stacks(&from.stackPointer, to.stackPointer);
#else
  if (swapcontext(&Native(from), &Native(to)) != 0)
  {
    Fail("swapcontext failed");
  }
#endif
  // Resumed: from is running again.
#if defined(CCA_FIBRES_ASAN)
  FibreContext * previous = switchingFrom;
  __sanitizer_finish_switch_fiber(from.sanitizerFakeStack, &previous->stackBottom, &previous->stackSize);
#endif
}

void
EnterFibre()
{
#if defined(CCA_FIBRES_ASAN)
  FibreContext * previous = switchingFrom;
  __sanitizer_finish_switch_fiber(nullptr, &previous->stackBottom, &previous->stackSize);
#endif
}

void
ForgetFibre(FibreContext & fibre)
{
#if defined(CCA_FIBRES_TSAN)
  if (fibre.ownsThreadSanitizerFibre)
  {
    __tsan_destroy_fiber(fibre.threadSanitizerFibre);
    fibre.threadSanitizerFibre = nullptr;
    fibre.ownsThreadSanitizerFibre = false;
  }
#endif
#if !defined(CCA_FIBRES_X86_64)
  delete static_cast<ucontext_t *>(fibre.native);
  fibre.native = nullptr;
#endif
  (void)fibre;
}

} // namespace emulation
