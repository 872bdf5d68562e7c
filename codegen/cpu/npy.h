// npy.h — reads and writes NumPy .npy files (format 1.0/2.0, C order) for the
// emulator: bool, i8, i16, i32, i64, u8, u32, u64, f16, f32, f64; bf16 travels
// as its raw 16 bits in a uint16 array ('<u2').
#pragma once

#include <string>

#include "codegen/cpu/emulator.h"

namespace hds::emu {

// Reads `path` into `out`; `want` is the element type the kernel expects (it
// decides how '<u2' is read). Returns "" or an error message.
std::string read_npy(const std::string& path, ScalarType want, Tensor* out);
// Serialises a tensor as .npy bytes.
std::string npy_bytes(const Tensor& t);

}  // namespace hds::emu
