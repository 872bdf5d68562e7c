#!/usr/bin/env bash
# Shared setup for demo.sh and test.sh (sourced, not run): installs what is
# missing (Debian packages with apt-get, Python packages into .venv/) and
# configures + builds hdsc. Idempotent: a second run installs nothing.
set -euo pipefail

HDS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HDS_BUILD=${HDS_BUILD:-$HDS_ROOT/build}
HDS_DEBIAN_PACKAGES=(antlr4 libantlr4-runtime-dev libfmt-dev catch2 libcli11-dev nlohmann-json3-dev
                     cmake ninja-build g++ python3-venv)
# torch (from PyPI; here it runs on the CPU) for the Python package's custom ops and
# torch.compile backend and their tests; the package itself (python/, editable); pytest-xdist
# runs the emulator's and the package's tests on every core.
HDS_PYTHON_PACKAGES=(pytest pytest-xdist numpy torch)
# The sanitizer build (scripts/test.sh --sanitize) compiles with clang and its ASan/UBSan runtime.
HDS_SANITIZE_PACKAGES=(clang libclang-rt-dev)

hds_log() { printf '\033[1m[hds]\033[0m %s\n' "$*"; }

hds_install_debian() {
    local missing=()
    for p in "${HDS_DEBIAN_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
        hds_log "Debian packages: all present"
        return
    fi
    hds_log "installing Debian packages: ${missing[*]}"
    local sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

hds_install_python() {
    local venv=$HDS_ROOT/.venv
    if [[ ! -x $venv/bin/python ]]; then
        hds_log "creating Python venv in .venv/"
        python3 -m venv "$venv"
    fi
    if ! "$venv/bin/python" -c "import pytest, xdist, numpy, torch, hds" 2>/dev/null; then
        hds_log "installing Python packages into .venv/: ${HDS_PYTHON_PACKAGES[*]} and hds (python/)"
        "$venv/bin/python" -m pip install -q --disable-pip-version-check "${HDS_PYTHON_PACKAGES[@]}"
        "$venv/bin/python" -m pip install -q --disable-pip-version-check -e "$HDS_ROOT/python"
    else
        hds_log "Python packages: all present in .venv/"
    fi
    HDS_PYTHON=$venv/bin/python
}

hds_check_toolchain() {
    # Debian ships the antlr4 tool at 4.7.2 and the C++ runtime at 4.9: the
    # generated parser must build against the runtime (the build checks it).
    hds_log "antlr4 tool $(dpkg-query -W -f='${Version}' antlr4), runtime $(dpkg-query -W -f='${Version}' libantlr4-runtime-dev)"
    if command -v nvcc >/dev/null || [[ -x /usr/local/cuda/bin/nvcc ]]; then
        export PATH=$PATH:/usr/local/cuda/bin
        hds_log "$(nvcc --version | tail -2 | head -1)"
    else
        hds_log "nvcc not found: the nvcc compile tests will be skipped"
    fi
}

hds_build() {  # hds_build [extra cmake args...]
    hds_log "building in ${HDS_BUILD#$HDS_ROOT/}/"
    cmake -S "$HDS_ROOT" -B "$HDS_BUILD" -G Ninja "$@" >/dev/null
    cmake --build "$HDS_BUILD" -j"$(nproc)"
}

hds_setup() {
    hds_install_debian
    hds_install_python
    hds_check_toolchain
}
