// Stackful fibres for the CUDA emulation: the threads of an emulated block
// are fibres on one OS thread, switched where a CUDA thread waits for others
// (__syncthreads, warp intrinsics). A switch saves and restores only the
// callee-saved registers (a few nanoseconds on x86-64; glibc's swapcontext,
// used elsewhere, also makes a system call for the signal mask). Switches are
// announced to AddressSanitizer and ThreadSanitizer when they are on.
#ifndef cca_emulation_Fibres_h
#define cca_emulation_Fibres_h

#include <cstddef>

namespace emulation
{

/** A saved execution context: the OS thread's own, or a fibre's. */
struct FibreContext
{
  void *       stackPointer = nullptr; ///< where the switch left the registers
  void *       native = nullptr;       ///< the ucontext_t of the portable fallback
  const void * stackBottom = nullptr;  ///< the lowest address of the stack (sanitizers)
  std::size_t  stackSize = 0;
  void *       sanitizerFakeStack = nullptr;
  void *       threadSanitizerFibre = nullptr;
  bool         ownsThreadSanitizerFibre = false;
};

/** A fibre's stack (with a guard page below it where the system allows). */
class FibreStack
{
public:
  explicit FibreStack(std::size_t bytes);
  ~FibreStack();
  FibreStack(const FibreStack &) = delete;
  FibreStack &
  operator=(const FibreStack &) = delete;

  void *
  Bottom() const
  {
    return m_Usable;
  }
  std::size_t
  Size() const
  {
    return m_Size;
  }

private:
  void *      m_Mapping = nullptr;
  std::size_t m_MappingSize = 0;
  void *      m_Usable = nullptr;
  std::size_t m_Size = 0;
};

/** Makes fibre a context that, when switched to, calls entry(argument) on
 *  stack. entry must never return: it ends by switching away for good. */
void
StartFibre(FibreContext & fibre, FibreStack & stack, void (*entry)(void *), void * argument);

/** Saves the running context into from and resumes to. finished: from will
 *  never be resumed (its sanitizer state is released). */
void
SwitchFibre(FibreContext & from, FibreContext & to, bool finished = false);

/** Called first thing in a fibre's entry function (completes the switch
 *  that started it, for the sanitizers). */
void
EnterFibre();

/** Releases what StartFibre attached to a fibre context (ThreadSanitizer). */
void
ForgetFibre(FibreContext & fibre);

} // namespace emulation

#endif
