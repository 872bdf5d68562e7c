"""`hdsc run` refuses malformed use with exit 1, a message, and no output."""
import subprocess

import numpy as np
import pytest

import emulator

EX = str(emulator.ROOT / "examples" / "vector_add.hds")


def hdsc_run(*args, cwd=None):
    return subprocess.run([str(emulator.hdsc()), "run", *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture
def vectors(tmp_path):
    np.save(tmp_path / "a.npy", np.ones(10, np.float32))
    np.save(tmp_path / "b.npy", np.ones(10, np.float32))
    np.save(tmp_path / "i.npy", np.ones(10, np.int32))
    np.save(tmp_path / "short.npy", np.ones(7, np.float32))
    return tmp_path


@pytest.mark.parametrize("args,message", [
    (["--kernel", "nope", "--inputs", "a.npy,b.npy"], "no kernel named 'nope'"),
    (["--kernel", "vector_add", "--inputs", "a.npy,missing.npy"], "cannot open 'missing.npy'"),
    (["--kernel", "vector_add", "--inputs", "a.npy,i.npy"], "'b' holds i32 but the kernel expects f32"),
    (["--kernel", "vector_add", "--inputs", "a.npy,short.npy"], "size N is 10 but dimension 0 of 'b' is 7"),
    (["--kernel", "vector_add", "--inputs", "a.npy,b.npy,a.npy,b.npy"], "too many tensor parameter files"),
    (["--kernel", "vector_add", "--inputs", "q=a.npy"], "'q' is not a tensor parameter of the kernel"),
    (["--kernel", "vector_add", "--sizes", "N"], "bad size 'N': expected NAME=NUMBER"),
    (["--kernel", "vector_add", "--sizes", "N=abc"], "bad size 'N=abc'"),
    (["--kernel", "vector_add"], "size N is not given and no input tensor has it"),
    (["--kernel", "vector_add", "--sizes", "N=0"], "size N must be in 1..2^31-1"),
    (["--kernel", "vector_add", "--inputs", "a.npy,b.npy", "--outputs", "out/none/c.npy"], "cannot create"),
    (["--kernel", "vector_add", "--frobnicate"], "frobnicate"),
])
def test_bad_use_is_an_error(vectors, args, message):
    proc = hdsc_run(EX, *args, cwd=vectors)
    assert proc.returncode == 1, proc.stderr
    assert message in proc.stderr
    assert not (vectors / "c.npy").exists()


def test_missing_file_and_directory(tmp_path):
    assert "cannot read" in hdsc_run(str(tmp_path / "x.hds"), "--kernel", "k").stderr
    assert "is a directory" in hdsc_run(str(tmp_path), "--kernel", "k").stderr


def test_positional_outputs_name_written_tensors(vectors):
    proc = hdsc_run(EX, "--kernel", "vector_add", "--inputs", "a.npy,b.npy", "--outputs", "c.npy", cwd=vectors)
    assert proc.returncode == 0, proc.stderr
    assert "c -> c.npy" in proc.stdout
    np.testing.assert_array_equal(np.load(vectors / "c.npy"), np.full(10, 2, np.float32))


def test_launch_configuration_errors_are_reported(tmp_path):
    src = tmp_path / "dz.hds"
    src.write_text("kernel k(a: f32[N], t: i32) grid(N / t) block(1) { a[0] = 1.0; }\n")
    proc = hdsc_run(str(src), "--kernel", "k", "--sizes", "N=4", "--scalars", "t=0", cwd=tmp_path)
    assert proc.returncode == 1
    assert "dz.hds:1:1: error: computing the launch configuration: integer division by zero" in proc.stderr
    src.write_text("kernel k(a: f32[N], t: i32) grid(1) block(t) { a[0] = 1.0; }\n")
    proc = hdsc_run(str(src), "--kernel", "k", "--sizes", "N=4", "--scalars", "t=2048", cwd=tmp_path)
    assert proc.returncode == 1
    assert "over the limits" in proc.stderr
