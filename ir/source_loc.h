// source_loc.h — positions in .hds files. They live in the lowest layer that
// needs them (IR statements carry one for the comments of emitted code); the
// files' text and path names are the front end's (frontend/source_manager.h).
#pragma once

#include <cstdint>

namespace hds {

// A position in a source file. Lines and columns count from 1; line 0 means
// "no location" (used for diagnostics about the command line or whole files).
struct SourceLoc {
    uint32_t file = 0;
    uint32_t line = 0;
    uint32_t col = 0;
    bool valid() const { return line != 0; }
    bool operator==(const SourceLoc& o) const { return file == o.file && line == o.line && col == o.col; }
    bool operator!=(const SourceLoc& o) const { return !(*this == o); }
};

// A half-open range [begin, end) of one file; end may equal begin.
struct SourceRange {
    SourceLoc begin;
    SourceLoc end;
    bool valid() const { return begin.valid(); }
};

}  // namespace hds
