"""What `hdsc --manifest` says about a file's graphs, and the checks of a call
made from it: tensors against declared dtypes and shapes, sizes bound from the
shapes, the graph's per-run requirements."""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field

from .errors import ArgumentError, HdsError

# hds element types: (torch dtype name, numpy dtype name; bf16 travels as raw uint16 bits)
DTYPES = {
    "bool": ("bool", "bool"), "i8": ("int8", "int8"), "i16": ("int16", "int16"), "i32": ("int32", "int32"),
    "i64": ("int64", "int64"), "u8": ("uint8", "uint8"), "u32": ("uint32", "uint32"), "u64": ("uint64", "uint64"),
    "f16": ("float16", "float16"), "bf16": ("bfloat16", "uint16"), "f32": ("float32", "float32"),
    "f64": ("float64", "float64"),
}

INT32_MAX = 2**31 - 1


# The device's shared memory a block (`hds::shared_memory_per_block()` in sm_80 code's dispatch
# conditions, docs/graphs.md "Shared memory of the device"): a name of its own in `evaluate`'s sizes.
SHARED_MEMORY = "shared_memory_per_block__"
H100_SHARED_MEMORY = 232448  # bytes a block may have on an H100 (hdsc run's default device)


def _device_shared_memory() -> int:
    """The shared memory a block may have on the current CUDA device (torch's properties), else
    an H100's."""
    try:
        import torch
        if torch.cuda.is_available():
            props = torch.cuda.get_device_properties(torch.cuda.current_device())
            return int(getattr(props, "shared_memory_per_block_optin", H100_SHARED_MEMORY))
    except ImportError:
        pass
    return H100_SHARED_MEMORY


# Whether the device runs the .cu's sm_90a code (`sm90a_code()` in the dispatch of a graph of a
# file that declares no target, docs/cli.md "The target"): the package builds such a .cu for
# compute_90a too, so it holds on an H100/H200-class GPU (compute capability 9.0).
SM90A_CODE = "sm90a_code__"


def _device_runs_sm90a() -> bool:
    try:
        import torch
        return torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)
    except ImportError:
        return False


def _c_to_python(expr: str) -> str:
    expr = expr.replace("hds::shared_memory_per_block()", SHARED_MEMORY).replace("sm90a_code()", SM90A_CODE)
    return expr.replace("&&", " and ").replace("||", " or ").replace("!=", "\0").replace("!", " not ").replace("\0", "!=")


@functools.lru_cache(maxsize=1024)
def _parsed(expr: str):
    return ast.parse(_c_to_python(expr), mode="eval")


def evaluate(expr, sizes: dict[str, int]):
    """The value of a dimension or condition from the manifest (an int, or C
    syntax over the sizes: + - * / % on positive ints, min, max, comparisons,
    && ||) for the bound `sizes`. KeyError names a size that is not bound."""
    if isinstance(expr, int):
        return expr
    tree = _parsed(expr)

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.Name):
            return sizes[n.id]
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return not ev(n.operand)
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            if isinstance(n.op, ast.Add):
                return a + b
            if isinstance(n.op, ast.Sub):
                return a - b
            if isinstance(n.op, ast.Mult):
                return a * b
            if isinstance(n.op, (ast.Div, ast.FloorDiv, ast.Mod)):
                if not (isinstance(a, int) and isinstance(b, int)):  # symbolic (torch's SymInt): sizes are positive
                    return a // b if not isinstance(n.op, ast.Mod) else a % b
                q = abs(a) // abs(b)  # C: truncates toward zero
                q = q if (a >= 0) == (b >= 0) else -q
                return q if not isinstance(n.op, ast.Mod) else a - b * q
        if isinstance(n, ast.BoolOp):
            values = [ev(v) for v in n.values]
            return all(values) if isinstance(n.op, ast.And) else any(values)
        if isinstance(n, ast.Compare) and len(n.ops) == 1:
            a, b = ev(n.left), ev(n.comparators[0])
            ops = {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b, ast.Eq: a == b, ast.NotEq: a != b}
            return ops[type(n.ops[0])]
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("min", "max"):
            return (min if n.func.id == "min" else max)(ev(a) for a in n.args)
        raise HdsError(f"hds: cannot evaluate '{expr}' from the manifest (unsupported form)")

    return ev(tree)


def shape_text(shape: list) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


@dataclass
class Tensor:
    name: str
    dtype: str
    shape: list  # ints and expressions over the sizes
    alignment: int

    @staticmethod
    def parse(j: dict) -> "Tensor":
        return Tensor(j["name"], j["dtype"], list(j["shape"]), int(j["alignment"]))

    def declared(self) -> str:
        return f"{self.dtype}{shape_text(self.shape)}"


@dataclass
class Graph:
    name: str
    inputs: list[Tensor]
    output: Tensor
    sizes: list[str]
    functions: dict[str, str]
    requirements: list[dict] = field(default_factory=list)
    variants: list[dict] = field(default_factory=list)
    cu: str = ""

    @staticmethod
    def parse(j: dict) -> "Graph":
        return Graph(j["name"], [Tensor.parse(t) for t in j["inputs"]], Tensor.parse(j["output"]), list(j["sizes"]),
                     dict(j["functions"]), list(j["requirements"]), list(j["variants"]), j.get("cu", ""))

    def signature(self) -> str:
        params = ", ".join(f"{t.name}: {t.declared()}" for t in self.inputs)
        return f"{self.name}({params}) -> {self.output.declared()}"

    def bind(self, shapes: dict[str, tuple], given: dict[str, int] | None = None) -> dict[str, int]:
        """Binds the graph's sizes from the inputs' `shapes` (name -> tuple; every
        input present, ranks already checked) and checks every dimension and
        requirement; `given`: sizes passed by name, for those no shape shows."""
        sizes: dict[str, int] = {}
        source: dict[str, str] = {}
        for name, value in (given or {}).items():
            if name not in self.sizes:
                raise ArgumentError(f"{self.name}: sizes: '{name}' is not a size of the graph (its sizes: "
                                    f"{', '.join(self.sizes) or 'none'})")
            if not isinstance(value, int) or isinstance(value, bool):
                raise ArgumentError(f"{self.name}: sizes: '{name}' must be an int, got {type(value).__name__}")
            sizes[name], source[name] = value, "sizes="
        for t in self.inputs:  # a dimension that is a size's name binds it
            for axis, (dim, actual) in enumerate(zip(t.shape, shapes[t.name])):
                if isinstance(dim, str) and dim in self.sizes:
                    if dim in sizes and sizes[dim] != actual:
                        raise ArgumentError(
                            f"{self.name}: parameter '{t.name}' has shape {list(shapes[t.name])}, expected "
                            f"{shape_text(t.shape)}: dimension {axis} is {actual} but {dim} = {sizes[dim]} "
                            f"(from {source[dim]})")
                    sizes.setdefault(dim, actual)
                    source.setdefault(dim, f"parameter '{t.name}', dimension {axis}")
        for name in self.sizes:
            if name not in sizes:
                raise ArgumentError(f"{self.name}: size {name} is not a dimension of any parameter; pass it as "
                                    f"sizes={{'{name}': ...}}")
            if not 0 < sizes[name] <= INT32_MAX:
                raise ArgumentError(f"{self.name}: size {name} = {sizes[name]} (from {source[name]}) must be "
                                    f"between 1 and {INT32_MAX}")
        for t in self.inputs:  # every other dimension must agree with them
            expected = [evaluate(d, sizes) for d in t.shape]
            if list(shapes[t.name]) != expected:
                raise ArgumentError(
                    f"{self.name}: parameter '{t.name}' has shape {list(shapes[t.name])}, expected "
                    f"{shape_text(t.shape)} = {expected} with " + ", ".join(f"{k} = {v}" for k, v in sizes.items()))
        for r in self.requirements:
            if not evaluate(r["condition"], sizes):
                raise ArgumentError(f"{self.name}: the sizes " + ", ".join(f"{k} = {v}" for k, v in sizes.items()) +
                                    f" break {r['why']}")
        return sizes

    def output_shape(self, sizes: dict[str, int]) -> list[int]:
        return [evaluate(d, sizes) for d in self.output.shape]

    def variant_for(self, sizes: dict[str, int], shared_memory: int | None = None, sm90a: bool | None = None) -> str:
        """The variant the emitted dispatch runs for `sizes` (the first whose conditions hold) on a
        device whose blocks may have `shared_memory` bytes (default: the current CUDA device's,
        else an H100's, as `hdsc run`) and that runs sm_90a code where `sm90a` (default: whether
        the current CUDA device is an H100/H200-class GPU; False without one)."""
        sizes = {**sizes, SHARED_MEMORY: shared_memory or _device_shared_memory(),
                 SM90A_CODE: _device_runs_sm90a() if sm90a is None else sm90a}
        for v in self.variants:
            if all(evaluate(w["condition"], sizes) for w in v["when"]):
                return v["name"]
        return self.name
