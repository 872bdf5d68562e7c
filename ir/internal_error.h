// internal_error.h — compiler bugs. A broken invariant throws InternalError;
// the driver catches it, prints "internal compiler error" and exits 2.
#pragma once

#include <stdexcept>
#include <string>

namespace hds {

struct InternalError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

#define HDS_CHECK(cond, msg)                                                                           \
    do {                                                                                               \
        if (!(cond))                                                                                   \
            throw ::hds::InternalError(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " + \
                                       std::string(msg));                                              \
    } while (0)

}  // namespace hds
