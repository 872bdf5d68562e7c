// fiber.h — minimal cooperative threads (ucontext) for the emulator: a fiber
// runs until it yields back to the scheduler that resumed it. Annotated for
// AddressSanitizer, which otherwise loses track of the switched stacks.
#pragma once

#include <ucontext.h>

#include <functional>
#include <memory>

namespace hds::emu {

class Fiber {
  public:
    explicit Fiber(size_t stack_bytes = 256 * 1024);
    // Prepares the fiber to run `body` from the start on the next resume().
    void start(std::function<void()> body);
    // Runs the fiber until it yields or finishes. Returns true when it finished.
    bool resume();
    // Called from inside the fiber: returns control to resume()'s caller.
    void yield();
    bool finished() const { return finished_; }

  private:
    static void trampoline(unsigned lo, unsigned hi);
    std::unique_ptr<char[]> stack_;
    size_t stack_bytes_;
    ucontext_t ctx_{}, caller_{};
    std::function<void()> body_;
    bool finished_ = true;
    void* fake_stack_ = nullptr;
    const void* caller_stack_bottom_ = nullptr;
    size_t caller_stack_size_ = 0;
};

}  // namespace hds::emu
