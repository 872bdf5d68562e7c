// npy.cpp — the .npy format (see https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html).
#include "codegen/cpu/npy.h"

#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

#include "codegen/cpu/half.h"

namespace hds::emu {

namespace {

struct Dtype {
    const char* descr;
    ScalarType type;
    int bytes;
};
const Dtype kDtypes[] = {{"|b1", ScalarType::Bool, 1}, {"|i1", ScalarType::I8, 1},  {"<i2", ScalarType::I16, 2},
                         {"<i4", ScalarType::I32, 4},  {"<i8", ScalarType::I64, 8}, {"|u1", ScalarType::U8, 1},
                         {"<u4", ScalarType::U32, 4},  {"<u8", ScalarType::U64, 8}, {"<f2", ScalarType::F16, 2},
                         {"<f4", ScalarType::F32, 4},  {"<f8", ScalarType::F64, 8}, {"<u2", ScalarType::BF16, 2}};

template <typename T>
T read_as(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}
template <typename T>
void write_as(std::string& out, T v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof(T));
}

}  // namespace

std::string read_npy(const std::string& path, ScalarType want, Tensor* out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot open '" + path + "'";
    std::stringstream ss;
    ss << in.rdbuf();
    std::string data = ss.str();
    if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0) return "'" + path + "' is not a .npy file";
    int major = static_cast<unsigned char>(data[6]);
    size_t header_len = major == 1 ? read_as<uint16_t>(&data[8]) : read_as<uint32_t>(&data[8]);
    size_t start = major == 1 ? 10 : 12;
    if (start + header_len > data.size()) return "'" + path + "' has a truncated header";
    std::string header = data.substr(start, header_len);
    std::smatch m;
    if (!std::regex_search(header, m, std::regex(R"('descr':\s*'([^']+)')"))) return "no dtype in '" + path + "'";
    std::string descr = m[1];
    if (std::regex_search(header, std::regex(R"('fortran_order':\s*True)")))
        return "'" + path + "' is in Fortran order; save a C-ordered array";
    if (!std::regex_search(header, m, std::regex(R"('shape':\s*\(([^)]*)\))"))) return "no shape in '" + path + "'";
    out->shape.clear();
    std::stringstream dims(m[1].str());
    for (std::string d; std::getline(dims, d, ',');)
        if (d.find_first_not_of(" ") != std::string::npos) out->shape.push_back(std::stoll(d));
    const Dtype* dt = nullptr;
    for (const Dtype& d : kDtypes)
        if (descr == d.descr && (d.type == want || descr != "<u2")) dt = &d;
    if (descr == "<u2" && want != ScalarType::BF16) dt = nullptr;
    if (!dt) return fmt::format("'{}' has dtype {}, which does not match '{}'", path, descr, scalar_name(want));
    out->elem = dt->type;
    int64_t n = out->size();
    const char* p = data.data() + start + header_len;
    if (data.size() - start - header_len < static_cast<size_t>(n * dt->bytes)) return "'" + path + "' is truncated";
    out->f.clear();
    out->i.clear();
    for (int64_t k = 0; k < n; ++k, p += dt->bytes) {
        switch (dt->type) {
            case ScalarType::Bool:
                out->i.push_back(*p != 0);
                break;
            case ScalarType::I8:
                out->i.push_back(read_as<int8_t>(p));
                break;
            case ScalarType::I16:
                out->i.push_back(read_as<int16_t>(p));
                break;
            case ScalarType::I32:
                out->i.push_back(read_as<int32_t>(p));
                break;
            case ScalarType::I64:
                out->i.push_back(read_as<int64_t>(p));
                break;
            case ScalarType::U8:
                out->i.push_back(read_as<uint8_t>(p));
                break;
            case ScalarType::U32:
                out->i.push_back(read_as<uint32_t>(p));
                break;
            case ScalarType::U64:
                out->i.push_back(static_cast<int64_t>(read_as<uint64_t>(p)));
                break;
            case ScalarType::F16:
                out->f.push_back(half_to_double(read_as<uint16_t>(p)));
                break;
            case ScalarType::BF16:
                out->f.push_back(bf16_to_double(read_as<uint16_t>(p)));
                break;
            case ScalarType::F32:
                out->f.push_back(read_as<float>(p));
                break;
            case ScalarType::F64:
                out->f.push_back(read_as<double>(p));
                break;
        }
    }
    return "";
}

std::string npy_bytes(const Tensor& t) {
    const Dtype* dt = nullptr;
    for (const Dtype& d : kDtypes)
        if (d.type == t.elem) dt = &d;
    std::string shape;
    for (int64_t d : t.shape) shape += std::to_string(d) + ", ";
    if (t.shape.size() > 1) shape.resize(shape.size() - 1);  // "(3, 4)" but "(3,)"
    std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", dt->descr, shape);
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    write_as<uint16_t>(out, static_cast<uint16_t>(header.size()));
    out += header;
    for (int64_t k = 0; k < t.size(); ++k) {
        switch (t.elem) {
            case ScalarType::Bool:
                out += static_cast<char>(t.i[k] != 0);
                break;
            case ScalarType::I8:
                write_as<int8_t>(out, static_cast<int8_t>(t.i[k]));
                break;
            case ScalarType::I16:
                write_as<int16_t>(out, static_cast<int16_t>(t.i[k]));
                break;
            case ScalarType::I32:
                write_as<int32_t>(out, static_cast<int32_t>(t.i[k]));
                break;
            case ScalarType::I64:
                write_as<int64_t>(out, t.i[k]);
                break;
            case ScalarType::U8:
                write_as<uint8_t>(out, static_cast<uint8_t>(t.i[k]));
                break;
            case ScalarType::U32:
                write_as<uint32_t>(out, static_cast<uint32_t>(t.i[k]));
                break;
            case ScalarType::U64:
                write_as<uint64_t>(out, static_cast<uint64_t>(t.i[k]));
                break;
            case ScalarType::F16:
                write_as<uint16_t>(out, to_half(t.f[k]));
                break;
            case ScalarType::BF16:
                write_as<uint16_t>(out, to_bf16(t.f[k]));
                break;
            case ScalarType::F32:
                write_as<float>(out, static_cast<float>(t.f[k]));
                break;
            case ScalarType::F64:
                write_as<double>(out, t.f[k]);
                break;
        }
    }
    return out;
}

}  // namespace hds::emu
