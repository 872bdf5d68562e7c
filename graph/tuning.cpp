// tuning.cpp — search spaces and the JSON cache of `hdsc tune` (see tuning.h).
#include "graph/tuning.h"

#include <algorithm>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace hds::graph {

std::string TuneChoice::describe() const {
    std::string s = schedule;
    for (const auto& [name, value] : params) s += " " + name + "=" + std::to_string(value);
    return s;
}

namespace {

TuneChoice defaults(const TuneSchedule& s) {
    TuneChoice c{s.name, {}};
    for (const TuneParam& p : s.params) c.params[p.name] = p.fallback;
    return c;
}

void add_unique(std::vector<TuneChoice>& out, const TuneChoice& c) {
    for (const TuneChoice& seen : out)
        if (seen.schedule == c.schedule && seen.params == c.params) return;
    out.push_back(c);
}

// Every combination of the schedule's candidate values (defaults where none).
void all_combinations(const TuneSchedule& s, size_t i, TuneChoice& cur, std::vector<TuneChoice>& out) {
    if (i == s.params.size()) {
        add_unique(out, cur);
        return;
    }
    const TuneParam& p = s.params[i];
    std::vector<int64_t> values = p.candidates.empty() ? std::vector<int64_t>{p.fallback} : p.candidates;
    for (int64_t v : values) {
        cur.params[p.name] = v;
        all_combinations(s, i + 1, cur, out);
    }
    cur.params[p.name] = p.fallback;
}

}  // namespace

std::string arch_name(int arch) {
    return arch == 0 ? "emulator" : arch >= 90 ? "sm_90a" : "sm_80";
}

std::vector<TuneChoice> candidates(const TuneSite& site, int level) {
    std::vector<TuneChoice> out;
    if (site.schedules.empty()) return out;
    out.push_back(defaults(site.schedules[0]));
    if (level <= 0) return out;
    for (const TuneSchedule& s : site.schedules) {
        TuneChoice base = defaults(s);
        add_unique(out, base);
        if (level == 1) {
            for (const TuneParam& p : s.params) {
                for (int64_t v : p.candidates) {
                    TuneChoice c = base;
                    c.params[p.name] = v;
                    add_unique(out, c);
                }
            }
        } else {
            all_combinations(s, 0, base, out);
        }
    }
    return out;
}

std::optional<std::map<std::string, TuneChoice>> load_cache(const std::string& path, std::string& error) {
    std::ifstream in(path);
    if (!in) {
        error = "cannot read tuning cache '" + path + "'";
        return std::nullopt;
    }
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object() || !j.contains("entries") || !j["entries"].is_object()) {
        error = "'" + path + "' is not a tuning cache (expected {\"version\": 1, \"entries\": {...}})";
        return std::nullopt;
    }
    std::map<std::string, TuneChoice> out;
    for (const auto& [key, e] : j["entries"].items()) {
        if (!e.is_object() || !e.contains("schedule") || !e["schedule"].is_string() ||
            (e.contains("params") && !e["params"].is_object())) {
            error = "'" + path + "': malformed entry '" + key + "'";
            return std::nullopt;
        }
        TuneChoice c{e["schedule"].get<std::string>(), {}};
        if (e.contains("params")) {
            for (const auto& [name, v] : e["params"].items()) {
                if (!v.is_number_integer()) {
                    error = "'" + path + "': parameter '" + name + "' of '" + key + "' is not an integer";
                    return std::nullopt;
                }
                c.params[name] = v.get<int64_t>();
            }
        }
        out[key] = c;
    }
    return out;
}

std::string bucket_key(const std::string& key, const std::string& bucket) {
    return bucket.empty() ? key : key + " @ " + bucket;
}

std::string bucket_name(const std::string& size, int64_t max) {
    return size + " <= " + std::to_string(max);
}

std::vector<TuneBucket> buckets_of(const std::map<std::string, TuneChoice>& choices, const std::string& key) {
    std::vector<TuneBucket> out;
    std::string prefix = key + " @ ";
    for (auto it = choices.lower_bound(prefix); it != choices.end() && it->first.rfind(prefix, 0) == 0; ++it) {
        std::string bucket = it->first.substr(prefix.size());
        auto le = bucket.find(" <= ");
        if (le == std::string::npos) continue;
        try {
            size_t used = 0;
            int64_t max = std::stoll(bucket.substr(le + 4), &used);
            if (used != bucket.size() - le - 4) continue;
            out.push_back({bucket.substr(0, le), max, &it->second});
        } catch (const std::exception&) {
            continue;
        }
    }
    std::sort(out.begin(), out.end(), [](const TuneBucket& a, const TuneBucket& b) { return a.max < b.max; });
    return out;
}

bool store_cache(const std::string& path, const std::vector<TuneResult>& results, std::string& error) {
    nlohmann::json j = {{"version", 1}, {"entries", nlohmann::json::object()}};
    if (std::ifstream in(path); in) {
        nlohmann::json old = nlohmann::json::parse(in, nullptr, false);
        if (!old.is_discarded() && old.is_object() && old.contains("entries") && old["entries"].is_object())
            j["entries"] = old["entries"];
    }
    for (const TuneResult& r : results) {
        nlohmann::json e = {{"schedule", r.best.schedule},
                            {"params", r.best.params},
                            {"ms", r.ms},
                            {"sizes", r.sizes},
                            {"tried", r.tried}};
        if (!r.bucket.empty()) e["bucket"] = r.bucket;
        j["entries"][bucket_key(r.key, r.bucket)] = e;
    }
    std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp);
        out << j.dump(1) << "\n";
        if (!out) {
            error = "cannot write '" + tmp + "'";
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        error = "cannot rename '" + tmp + "' to '" + path + "'";
        return false;
    }
    return true;
}

}  // namespace hds::graph
