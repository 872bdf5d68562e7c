// tune.cpp — `hdsc tune` (see tune.h): record the tuning sites of the file's
// graphs, build every candidate with its timing program, compile them in
// parallel with nvcc, time them one after the other on the GPU, keep the best.
#include "driver/tune.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <thread>

#include "codegen/cuda/bench_emitter.h"
#include "codegen/cuda/graph_emitter.h"
#include "driver/compiler.h"
#include "driver/file_io.h"
#include "driver/graph_compile.h"
#include "driver/session.h"
#include "frontend/lower_to_ir.h"

#ifndef HDS_RUNTIME_DIR
#define HDS_RUNTIME_DIR "runtime"
#endif

namespace fs = std::filesystem;

namespace hds::driver {

namespace {

struct Candidate {
    graph::TuneChoice choice;
    fs::path dir;
    bool built = false;  // sources emitted and compiled
    double ms = -1;      // measured, or -1
    std::string failure;
};

// `--sizes M=1,16,128,K=4096`: a value per name, or several for one name (the size
// buckets, smallest first).
struct Sizes {
    std::map<std::string, int64_t> fixed;
    std::string bucketed;         // the name given several values, or ""
    std::vector<int64_t> values;  // its values, ascending
};

std::optional<Sizes> parse_sizes(const std::string& text, std::ostream& err) {
    std::map<std::string, std::vector<int64_t>> given;
    std::string last;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        auto eq = item.find('=');
        try {
            if (eq == std::string::npos && last.empty()) throw std::invalid_argument(item);
            if (eq != std::string::npos) last = item.substr(0, eq);
            size_t used = 0;
            std::string value = eq == std::string::npos ? item : item.substr(eq + 1);
            given[last].push_back(std::stoll(value, &used));
            if (used != value.size() || last.empty()) throw std::invalid_argument(item);
        } catch (const std::exception&) {
            err << "hdsc: error: --sizes expects NAME=VALUE,... (got '" << item << "')\n";
            return std::nullopt;
        }
    }
    Sizes sizes;
    for (auto& [name, values] : given) {
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        if (values.size() > 1 && !sizes.bucketed.empty()) {
            err << "hdsc: error: --sizes gives several values to '" << sizes.bucketed << "' and '" << name
                << "'; size buckets are for one size\n";
            return std::nullopt;
        }
        if (values.size() > 1) {
            sizes.bucketed = name;
            sizes.values = values;
        }
        sizes.fixed[name] = values.back();
    }
    return sizes;
}

// The message of the first "error: " line of printed diagnostics.
std::string first_error(const std::string& diags) {
    auto at = diags.find("error: ");
    if (at == std::string::npos) return "not a valid instance";
    at += 7;
    return diags.substr(at, diags.find('\n', at) - at);
}

// Checks the file for `target`; prints the diagnostics on failure.
bool check(Session& s, const TuneOptions& opts, graph::Tuning* tuning, std::ostream& err,
           graph::Decisions* decisions = nullptr) {
    if (!s.open(opts.input, err)) return false;
    if (s.check(opts.include_dirs, graph::Target{arch_number(opts.arch), tuning, decisions})) return true;
    s.diags.print(err);
    return false;
}

// The tuning sites of the file's graphs, each with the schedules that apply at
// `sizes` (a `when M <= 16` holds at M = 16, not at 4096; the first is what the
// compiler runs there, the default candidate); nullopt after errors.
std::optional<std::vector<graph::TuneSite>> record_sites(Session& s, const TuneOptions& opts,
                                                         const std::map<std::string, int64_t>& sizes,
                                                         std::ostream& err) {
    graph::Tuning record;
    record.record = true;
    graph::Decisions at_sizes = graph::Decisions::at(sizes);
    if (!check(s, opts, &record, err, &at_sizes)) return std::nullopt;
    std::vector<graph::TuneSite> sites;
    for (const graph::TuneSite& site : record.sites) {
        bool seen = false;
        for (const graph::TuneSite& t : sites) seen |= t.key == site.key;
        if (!seen) sites.push_back(site);
    }
    return sites;
}

// Emits the graph `site.graph` with `c` chosen for the site and `others` for
// the other sites, plus its timing program.
bool emit_candidate(const TuneOptions& opts, const graph::TuneSite& site, Candidate& c,
                    const std::map<std::string, graph::TuneChoice>& others, const std::map<std::string, int64_t>& sizes,
                    std::ostream& err) {
    graph::Tuning tuning;
    tuning.choices = others;
    // The candidate holds for any size: the site's bucket entries give way.
    for (const graph::TuneBucket& b : graph::buckets_of(others, site.key))
        tuning.choices.erase(graph::bucket_key(site.key, graph::bucket_name(b.size, b.max)));
    tuning.choices[site.key] = c.choice;
    Session s;
    if (!check(s, opts, &tuning, err)) return false;
    for (size_t i = 0; i < s.graphs.size(); ++i) {
        graph::Graph* g = s.graphs[i].get();
        if (g->name != site.graph) continue;
        ir::Module m = lower_to_ir(*s.loaded.module, s.sources);
        // As the compiler emits it: with its variants behind the dispatch where sizes
        // decide (graph/variants.h), so the timing runs the variant the given sizes pick.
        std::vector<graph::Variant>& cases = s.variants[i];
        std::string name = g->name;
        if (!cases.empty()) g->name = name + "_any";
        graph::Program p = compile_graph(*g, m, ir::PipelineOptions{});
        for (const ir::Var& v : p.sizes) {
            if (sizes.count(v->name)) continue;
            err << "hdsc: error: graph '" << name << "' has the size '" << v->name << "': give it with --sizes "
                << v->name << "=VALUE\n";
            return false;
        }
        codegen::CudaOptions copts;
        copts.header_include = name + ".h";
        copts.version = version();
        copts.arch = graph_target(s.target.arch, cases);
        copts.dependent_launch = copts.arch != "sm_80";  // as hdsc emits it by default
        copts.target_reason = describe_target(s.target, s.sources, copts.arch);
        copts.cu_name = name + ".cu";
        std::vector<graph::Program> programs = compile_variants(name, cases, m, ir::PipelineOptions{});
        codegen::CudaOutput code = emit_graph_variants(name, programs, cases, p, copts);
        p.name = name;  // the timing program calls the graph's API
        std::error_code ec;
        fs::create_directories(c.dir, ec);
        std::string why;
        if (!write_files_atomically(
                {{(c.dir / (name + ".cu")).string(), code.cu},
                 {(c.dir / (name + ".h")).string(), code.header},
                 {(c.dir / "bench.cu").string(), codegen::emit_graph_benchmark(p, name + ".h", sizes)}},
                &why)) {
            err << "hdsc: error: " << why << "\n";
            return false;
        }
        return true;
    }
    err << "hdsc: internal error: graph '" << site.graph << "' not found\n";
    return false;
}

std::string nvcc_command(const TuneOptions& opts, const Candidate& c, const std::string& graph) {
    std::string target = opts.target == "sm_90a" ? "-gencode=arch=compute_90a,code=sm_90a"
                         : opts.no_run           ? "-gencode=arch=compute_80,code=sm_80"
                                                 : "-arch=native";
    std::string runtime = opts.runtime.empty() ? HDS_RUNTIME_DIR : opts.runtime;
    return fmt::format("'{}' -O3 -std=c++17 {} -I '{}' -o '{}' '{}' '{}' > '{}' 2>&1", opts.nvcc, target, runtime,
                       (c.dir / "bench").string(), (c.dir / "bench.cu").string(), (c.dir / (graph + ".cu")).string(),
                       (c.dir / "nvcc.log").string());
}

// Compiles the candidates `jobs` at a time.
void compile_all(const TuneOptions& opts, std::vector<Candidate>& cands, const std::string& graph) {
    unsigned jobs = opts.jobs > 0 ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());
    std::atomic<size_t> next{0};
    std::vector<std::thread> pool;
    for (unsigned j = 0; j < std::min<size_t>(jobs, cands.size()); ++j) {
        pool.emplace_back([&] {
            for (size_t i = next++; i < cands.size(); i = next++) {
                Candidate& c = cands[i];
                if (!c.built) continue;
                if (std::system(nvcc_command(opts, c, graph).c_str()) != 0) {
                    c.built = false;
                    c.failure = "nvcc failed (" + (c.dir / "nvcc.log").string() + ")";
                }
            }
        });
    }
    for (std::thread& t : pool) t.join();
}

// Runs the timing program; the median time of one run, or -1 with `failure` set.
double measure(Candidate& c) {
    std::string cmd = "'" + (c.dir / "bench").string() + "' 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) {
        c.failure = "cannot run " + cmd;
        return -1;
    }
    std::string output;
    char buf[256];
    while (fgets(buf, sizeof buf, p)) output += buf;
    int status = pclose(p);
    auto at = output.find("hds-tune-ms ");
    if (status != 0 || at == std::string::npos) {
        c.failure = output.empty() ? "the timing program failed" : output.substr(0, output.find('\n'));
        return -1;
    }
    return std::stod(output.substr(at + 12));
}

// The compute capability of the GPU the candidates run on (90 for sm_90), by a
// program nvcc builds and runs in `work`; -1 where that fails (no GPU, no driver).
int gpu_capability(const TuneOptions& opts, const fs::path& work) {
    std::error_code ec;
    fs::create_directories(work, ec);
    fs::path src = work / "capability.cu", exe = work / "capability";
    std::string why;
    if (!write_files_atomically({{src.string(),
                                  "#include <cstdio>\n#include <cuda_runtime.h>\n"
                                  "int main() {\n    int d = 0;\n    cudaDeviceProp p;\n"
                                  "    if (cudaGetDevice(&d) != cudaSuccess || cudaGetDeviceProperties(&p, d) != "
                                  "cudaSuccess) return 1;\n"
                                  "    std::printf(\"hds-capability %d\\n\", p.major * 10 + p.minor);\n}\n"}},
                                &why))
        return -1;
    std::string cmd = fmt::format("'{}' -o '{}' '{}' > '{}' 2>&1 && '{}'", opts.nvcc, exe.string(), src.string(),
                                  (work / "capability.log").string(), exe.string());
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return -1;
    std::string output;
    char buf[256];
    while (fgets(buf, sizeof buf, p)) output += buf;
    int status = pclose(p);
    auto at = output.find("hds-capability ");
    return status == 0 && at != std::string::npos ? std::atoi(output.c_str() + at + 15) : -1;
}

class Progress {
  public:
    Progress(std::ostream& err, size_t total) : err_(err), total_(total), tty_(isatty(STDERR_FILENO)) {}
    void update(size_t done, const Candidate* best) {
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        const int width = 20;
        int filled = static_cast<int>(width * done / std::max<size_t>(total_, 1));
        std::string bar = std::string(filled, '#') + std::string(width - filled, '-');
        std::string best_text =
            best ? fmt::format("best {:.4f} ms ({})", best->ms, best->choice.describe()) : "best: none yet";
        err_ << (tty_ ? "\r" : "")
             << fmt::format("[{}] {}/{} candidates  {:.2f}/s  {}", bar, done, total_, done / std::max(secs, 1e-9),
                            best_text)
             << (tty_ ? "\033[K" : "\n") << std::flush;
    }
    void finish() {
        if (tty_) err_ << "\n";
    }

  private:
    std::ostream& err_;
    size_t total_;
    bool tty_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

int run_tune(const TuneOptions& given, std::ostream& out, std::ostream& err) {
    TuneOptions opts = given;
    auto parsed = parse_sizes(opts.sizes, err);
    if (!parsed) return kUserError;
    if (opts.level < 0 || opts.level > 2) {
        err << "hdsc: error: --level must be 0, 1 or 2\n";
        return kUserError;
    }
    Session s;
    std::optional<std::vector<graph::TuneSite>> sites = record_sites(s, opts, parsed->fixed, err);
    if (!sites) return kUserError;
    fs::path work =
        opts.work.empty() ? fs::temp_directory_path() / fmt::format("hdsc-tune-{}", getpid()) : fs::path(opts.work);
    struct Cleanup {  // a temporary folder goes, whatever happens
        fs::path dir;
        ~Cleanup() {
            std::error_code ec;
            if (!dir.empty()) fs::remove_all(dir, ec);
        }
    } cleanup{opts.work.empty() ? work : fs::path()};
    // A file of no target builds its graphs' sm_90a variants beside the sm_80 code where
    // they differ (docs/cli.md, "The target"), and an H100/H200-class GPU runs those: on
    // one, tuning takes their sites, as --arch=sm_90a would (--arch=sm_80: the others).
    if (s.target.origin == TargetChoice::Origin::Default && !opts.no_run && gpu_capability(opts, work) == 90) {
        opts.arch = "sm_90a";
        out << "hdsc tune: the GPU is sm_90, which runs the sm_90a variants of " << opts.input
            << "'s default build: tuning their sites (--arch=sm_80 tunes the sm_80 ones)\n";
        Session s90;
        sites = record_sites(s90, opts, parsed->fixed, err);
        if (!sites) return kUserError;
        s.target = s90.target;
    }
    opts.target = target_name(s.target.arch);  // the candidates are compiled for that target
    if (sites->empty()) {
        out << "hdsc tune: nothing to tune (no op call in the graphs of " << opts.input << " has a hand schedule for "
            << opts.target << ")\n";
        return kSuccess;
    }
    // While one site is timed, the others run as the graph will be compiled: with the
    // cache's entries, and the choices this run has made so far (defaults where neither).
    std::map<std::string, graph::TuneChoice> cached;
    if (fs::exists(opts.cache)) {
        std::string error;
        auto loaded = graph::load_cache(opts.cache, error);
        if (!loaded) {
            err << "hdsc: error: " << error << "\n";
            return kUserError;
        }
        cached = *loaded;
    }
    std::map<std::string, graph::TuneChoice> others = cached;
    std::vector<graph::TuneResult> results;
    // One search per size bucket (`--sizes M=1,16,128`: M <= 1, M <= 16, any M, timed at
    // 1, 16 and 128), or one for the sizes given.
    std::vector<std::pair<std::string, std::map<std::string, int64_t>>> buckets;
    if (parsed->bucketed.empty()) buckets.push_back({"", parsed->fixed});
    for (size_t b = 0; b < parsed->values.size(); ++b) {
        std::map<std::string, int64_t> at = parsed->fixed;
        at[parsed->bucketed] = parsed->values[b];
        bool last = b + 1 == parsed->values.size();
        buckets.push_back({last ? "" : graph::bucket_name(parsed->bucketed, parsed->values[b]), at});
    }
    for (size_t bi = 0; bi < buckets.size(); ++bi) {
        const std::string& bucket = buckets[bi].first;
        const std::map<std::string, int64_t>& sizes_at = buckets[bi].second;
        if (buckets.size() > 1)
            out << fmt::format("size bucket {}: timed at {}={}\n", bucket.empty() ? "(any)" : bucket, parsed->bucketed,
                               sizes_at.at(parsed->bucketed))
                << std::flush;
        const std::map<std::string, int64_t>* sizes = &sizes_at;
        if (buckets.size() > 1) {  // the schedules that apply at this bucket's sizes
            Session sb;
            sites = record_sites(sb, opts, sizes_at, err);
            if (!sites) return kUserError;
        }
        for (size_t k = 0; k < sites->size(); ++k) {
            const graph::TuneSite& site = (*sites)[k];
            std::string entry = graph::bucket_key(site.key, bucket);
            std::vector<Candidate> cands;
            for (const graph::TuneChoice& choice : graph::candidates(site, opts.level)) {
                Candidate c;
                c.choice = choice;
                std::string bucket_dir = buckets.size() > 1 ? fmt::format("bucket{}-", bi) : "";
                c.dir = work / fmt::format("{}site{}-cand{}", bucket_dir, k, cands.size());
                cands.push_back(c);
            }
            // Level 0 does not tune: it times the default but replaces no entry the cache has.
            bool keep_entry = opts.level == 0 && cached.count(entry) > 0;
            out << fmt::format("{}  (graph {}): {} candidates at level {}{}\n", entry, site.graph, cands.size(),
                               opts.level, keep_entry ? " (the cache's entry stays)" : "")
                << std::flush;
            for (size_t i = 0; i < cands.size(); ++i) {
                // A candidate other than the default that is not a valid instance (too much
                // shared memory for these parameters, say) is skipped with its first error.
                std::ostringstream diags;
                Candidate& c = cands[i];
                c.built = emit_candidate(opts, site, c, others, *sizes, i == 0 ? err : diags);
                if (!c.built && i > 0) c.failure = "skipped: " + first_error(diags.str());
            }
            if (!cands.front().built) return kUserError;  // the default does not build: nothing will
            compile_all(opts, cands, site.graph);
            if (opts.no_run) {
                for (const Candidate& c : cands)
                    out << fmt::format("  {}: {}\n", c.choice.describe(), c.built ? "compiled" : c.failure);
                continue;
            }
            Progress progress(err, cands.size());
            const Candidate* best = nullptr;
            for (size_t i = 0; i < cands.size(); ++i) {
                Candidate& c = cands[i];
                if (c.built) c.ms = measure(c);
                if (c.ms >= 0 && (!best || c.ms < best->ms)) best = &c;
                progress.update(i + 1, best);
            }
            progress.finish();
            for (const Candidate& c : cands)
                out << fmt::format("  {:<36} {}\n", c.choice.describe(),
                                   c.ms >= 0 ? fmt::format("{:.4f} ms", c.ms) : "failed: " + c.failure);
            if (!best) {
                err << "hdsc: error: no candidate of '" << entry << "' ran (is there a GPU?)\n";
                return kUserError;
            }
            out << fmt::format("  best: {} ({:.2f}x the default)\n", best->choice.describe(),
                               cands.front().ms > 0 ? cands.front().ms / best->ms : 0.0);
            if (keep_entry) continue;
            results.push_back({site.key, best->choice, best->ms, *sizes, static_cast<int>(cands.size()), bucket});
            others[entry] = best->choice;
        }
    }
    if (opts.no_run) return kSuccess;
    std::string error;
    if (!graph::store_cache(opts.cache, results, error)) {
        err << "hdsc: error: " << error << "\n";
        return kUserError;
    }
    out << "wrote " << results.size() << " entries to " << opts.cache << " (compile with --tune-cache " << opts.cache
        << ")\n";
    return kSuccess;
}

}  // namespace

int tune(const TuneOptions& opts, std::ostream& out, std::ostream& err) {
    return guard_internal_errors(err, [&] { return run_tune(opts, out, err); });
}

}  // namespace hds::driver
