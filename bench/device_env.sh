# device_env.sh — sourced by the scripts that run on the lent GPU machine:
# $out (results, from $OUT), the emitted .cu files carried in .devcarry/emitted,
# CUDA on PATH, and a record of the device and toolkit.
out=${OUT:-/tmp/hds-out}
mkdir -p "$out"
export HDS_EMITTED_DIR=$PWD/.devcarry/emitted PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; nvcc --version | tail -2; } >"$out/device.txt" 2>&1
