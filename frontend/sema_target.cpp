// sema_target.cpp — the target a file is compiled for: `--arch`, the file's
// `target` declaration, or the least target its kernels need (inferred).
#include "frontend/sema.h"

#include "ir/ir.h"

namespace hds {

const char* target_name(int arch) {
    return arch >= 90 ? "sm_90a" : "sm_80";
}

int target_from_name(const std::string& name) {
    if (name == "sm_80") return 80;
    if (name == "sm_90a") return 90;
    return 0;
}

void Sema::choose_target(int cli_arch) {
    choosing_target_ = true;
    target_fixed_ = cli_arch != 0;
    if (cli_arch)
        target_ = {cli_arch, TargetChoice::Origin::CommandLine, {}, ""};
    else
        target_ = {80, TargetChoice::Origin::Default, {}, ""};
    arch_ = target_.arch;
}

// `target NAME;`: at most one, in the main file, naming a known target.
void Sema::check_target_decls(const Module& m) {
    const Decl* first = nullptr;
    for (const DeclPtr& d : m.decls) {
        if (d->kind != DeclKind::Target) continue;
        if (d->from_import) {
            diags_.error(DiagId::target_in_import, d->range);
            continue;
        }
        int arch = target_from_name(d->name);
        if (!arch) {
            diags_.error(DiagId::target_unknown, d->name_range, d->name);
            continue;
        }
        if (first) {
            diags_.error(DiagId::target_redeclared, d->range);
            diags_.note(first->range, "the first declaration is here");
            continue;
        }
        first = d.get();
        if (!choosing_target_) continue;  // the emulator: no target
        if (target_.origin == TargetChoice::Origin::CommandLine) {
            if (arch != target_.arch)
                diags_.error(DiagId::target_conflict, d->range, d->name, target_name(target_.arch));
            continue;
        }
        target_ = {arch, TargetChoice::Origin::Declared, d->range, ""};
        target_fixed_ = true;
        arch_ = arch;
    }
}

void Sema::require_arch(int arch, SourceRange at, DiagId id, const std::string& what) {
    if (arch_ == 0 || in_instance_ || arch <= arch_) return;  // the emulator; graph schedules choose by target
    if (!target_fixed_) {
        if (arch > target_.arch) target_ = {arch, TargetChoice::Origin::Inferred, at, what};
        return;
    }
    // One error per file, at the first use that needs more; the same use in another
    // instantiation of a generic kernel only adds its instantiation note.
    if (mismatch_at_ && *mismatch_at_ != at.begin) return;
    mismatch_at_ = at.begin;
    bool declared = target_.origin == TargetChoice::Origin::Declared;
    std::string target =
        std::string(target_name(arch_)) + (declared ? "" : std::string(" (--arch=") + target_name(arch_) + ")");
    if (id == DiagId::builtin_needs_arch)
        diags_.error(id, at, what, target);
    else
        diags_.error(id, at, target);
    if (declared)
        diags_.note(target_.where,
                    "the target is declared here; without a declaration (and --arch) hdsc infers sm_90a");
    else
        diags_.note({}, "without --arch (and a 'target' declaration) hdsc infers sm_90a from the file");
}

void Sema::check_sm80_shared(const KernelDecl& k, int64_t bytes) {
    if (arch_ == 0 || in_instance_ || bytes <= ir::kSharedMemorySm86) return;
    sm80_shared_.push_back({k.name_range, k.name, bytes, instantiation_});
}

// Once every kernel is checked, the target is known: kernels over sm_80's
// shared memory get their warning if it is sm_80.
void Sema::finish_target() {
    if (target_.arch >= 90 || mismatch_at_) return;  // sm_90a, or a use already said the file needs it
    for (const SharedOver& s : sm80_shared_) {
        std::optional<InstantiationScope> scope;
        if (s.instantiation) scope.emplace(diags_, s.instantiation->where, s.instantiation->message);
        diags_.warning(DiagId::shared_over_sm80, s.range, s.kernel, s.bytes,
                       s.bytes > ir::kSharedMemorySm80
                           ? "an sm_80 block may have at most 166912 (163 KiB), so it launches only on "
                             "sm_90 and newer"
                           : "an sm_86/89/120 block may have at most 101376 (99 KiB), so it launches "
                             "only on A100 and H100-class GPUs");
    }
}

}  // namespace hds
