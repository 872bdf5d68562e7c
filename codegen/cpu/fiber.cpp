// fiber.cpp — ucontext-based fibers with ASan fiber-switch annotations.
#include "codegen/cpu/fiber.h"

#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#define HDS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HDS_ASAN 1
#endif
#endif
#ifdef HDS_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace hds::emu {

Fiber::Fiber(size_t stack_bytes) : stack_(new char[stack_bytes]), stack_bytes_(stack_bytes) {}

void Fiber::start(std::function<void()> body) {
    body_ = std::move(body);
    finished_ = false;
    getcontext(&ctx_);
    ctx_.uc_stack.ss_sp = stack_.get();
    ctx_.uc_stack.ss_size = stack_bytes_;
    ctx_.uc_link = nullptr;
    auto self = reinterpret_cast<uintptr_t>(this);
    makecontext(&ctx_, reinterpret_cast<void (*)()>(&Fiber::trampoline), 2, static_cast<unsigned>(self),
                static_cast<unsigned>(static_cast<uint64_t>(self) >> 32));
}

void Fiber::trampoline(unsigned lo, unsigned hi) {
    auto* f = reinterpret_cast<Fiber*>(static_cast<uintptr_t>(lo) | (static_cast<uintptr_t>(hi) << 32));
#ifdef HDS_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &f->caller_stack_bottom_, &f->caller_stack_size_);
#endif
    f->body_();
    f->finished_ = true;
#ifdef HDS_ASAN
    __sanitizer_start_switch_fiber(nullptr, f->caller_stack_bottom_, f->caller_stack_size_);
#endif
    setcontext(&f->caller_);
}

bool Fiber::resume() {
#ifdef HDS_ASAN
    __sanitizer_start_switch_fiber(&fake_stack_, stack_.get(), stack_bytes_);
#endif
    swapcontext(&caller_, &ctx_);
#ifdef HDS_ASAN
    __sanitizer_finish_switch_fiber(fake_stack_, nullptr, nullptr);
#endif
    return finished_;
}

void Fiber::yield() {
#ifdef HDS_ASAN
    __sanitizer_start_switch_fiber(&fake_stack_, caller_stack_bottom_, caller_stack_size_);
#endif
    swapcontext(&ctx_, &caller_);
#ifdef HDS_ASAN
    __sanitizer_finish_switch_fiber(fake_stack_, &caller_stack_bottom_, &caller_stack_size_);
#endif
}

}  // namespace hds::emu
