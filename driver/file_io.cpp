// file_io.cpp — reading and atomic writing.
#include "driver/file_io.h"

#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace hds::driver {

namespace fs = std::filesystem;

std::optional<std::string> read_file(const std::string& path, std::string* why) {
    std::error_code ec;
    auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
        if (why) *why = "no such file";
        return std::nullopt;
    }
    if (fs::is_directory(status)) {
        if (why) *why = "is a directory";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (why) *why = std::strerror(errno);
        return std::nullopt;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) {
        if (why) *why = "read error";
        return std::nullopt;
    }
    return ss.str();
}

bool write_files_atomically(const std::vector<OutputFile>& files, std::string* why) {
    std::vector<std::string> temps;
    auto cleanup = [&] {
        for (const std::string& t : temps) std::remove(t.c_str());
    };
    for (const OutputFile& f : files) {
        std::string tmpl = f.path + ".tmp.XXXXXX";
        std::vector<char> buf(tmpl.begin(), tmpl.end());
        buf.push_back('\0');
        int fd = mkstemp(buf.data());
        if (fd < 0) {
            *why = "cannot create '" + f.path + "': " + std::strerror(errno);
            cleanup();
            return false;
        }
        temps.emplace_back(buf.data());
        size_t done = 0;
        while (done < f.contents.size()) {
            ssize_t n = ::write(fd, f.contents.data() + done, f.contents.size() - done);
            if (n <= 0) break;
            done += static_cast<size_t>(n);
        }
        bool ok = done == f.contents.size() && ::fchmod(fd, 0644) == 0;
        ok &= ::close(fd) == 0;
        if (!ok) {
            *why = "cannot write '" + f.path + "': " + std::strerror(errno);
            cleanup();
            return false;
        }
    }
    for (size_t i = 0; i < files.size(); ++i) {
        if (std::rename(temps[i].c_str(), files[i].path.c_str()) != 0) {
            *why = "cannot write '" + files[i].path + "': " + std::strerror(errno);
            cleanup();
            return false;
        }
    }
    return true;
}

}  // namespace hds::driver
