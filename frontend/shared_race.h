// shared_race.h — -Wshared-race: a shared tensor read where a write to it by
// another thread may not be visible yet (no barrier between them).
#pragma once

#include "frontend/ast.h"
#include "frontend/diagnostics.h"

namespace hds {

// Walks a checked kernel's body in program order (loops twice, for writes that
// reach the next iteration; both branches of an if) and warns at each read of
// a shared tensor that a write reaches with no barrier (syncthreads, syncwarp,
// mbarrier_wait, cluster_sync) in between. A read at the same indices as every
// such write (a thread reading back what it wrote) is not reported.
void warn_shared_reads_before_barrier(const KernelDecl& k, DiagnosticsEngine& diags);

}  // namespace hds
