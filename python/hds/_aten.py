"""ATen FX nodes as .hds graph expressions, for the torch.compile backend
(dynamo.py): which nodes hds can run (`supported`, with the reason where not)
and the text of a partition as one `graph` per output (`translate`). Shapes
are the constants the node's example values have (static shapes)."""
from __future__ import annotations

import math
import operator
import re

KEYWORDS = {"block", "break", "cast", "cluster", "compute", "const", "continue", "device", "else", "false", "fn",
            "for", "global", "graph", "grid", "if", "import", "in", "kernel", "let", "on", "op", "register",
            "require", "return", "schedule", "shared", "step", "target", "true", "var", "when", "f16", "bf16",
            "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u32", "u64", "max", "min", "sum", "mean", "exp", "log"}
DTYPE_NAMES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16"}

UNARY = {"relu": "relu", "sigmoid": "sigmoid", "tanh": "tanh", "exp": "exp", "log": "log", "sqrt": "sqrt",
         "rsqrt": "rsqrt", "neg": "neg", "abs": "abs", "silu": "silu"}
BINARY = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
VIEWS = {"view", "_unsafe_view", "reshape", "unsqueeze", "squeeze", "clone", "contiguous", "alias"}
# ops returning tuples whose item 0 hds runs (read through getitem)
ITEM0 = {"native_layer_norm", "_native_batch_norm_legit_no_training", "max_pool2d_with_indices",
         "_scaled_dot_product_flash_attention_for_cpu", "_scaled_dot_product_flash_attention",
         "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention"}
TUPLES = ITEM0 | {"split"}


class Unsupported(Exception):
    """Why a node stays in eager."""


def _val(node):
    return node.meta.get("val") if hasattr(node, "meta") else None


def dtype_of(node) -> str:
    v = _val(node)
    name = str(getattr(v, "dtype", "")).replace("torch.", "")
    if name not in DTYPE_NAMES:
        raise Unsupported(f"dtype {name or 'unknown'}")
    return DTYPE_NAMES[name]


_SYMBOLIC = re.compile(r"^[a-z][a-z0-9_]*(\*([a-z][a-z0-9_]*|[0-9]+))*$")


def shape_of(node) -> list:
    """The node's dimensions: ints, and torch's symbolic sizes (dynamic shapes) as graph
    sizes of the same names (`s0`) or their products (`s0 * s1`)."""
    v = _val(node)
    if v is None or not hasattr(v, "shape"):
        raise Unsupported("no example value")
    dims = []
    for d in v.shape:
        if isinstance(d, int):
            dims.append(d)
            continue
        text = str(d).replace(" ", "")
        if not _SYMBOLIC.match(text):
            raise Unsupported(f"symbolic size {d} (only sizes and their products are translated)")
        dims.append(text.replace("*", " * "))
    return dims


def is_tensor(node) -> bool:
    return hasattr(_val(node), "shape")


def type_of(node, parameter: bool = False) -> str:
    dims = shape_of(node)
    if parameter and any(isinstance(d, str) and "*" in d for d in dims):
        raise Unsupported(f"an input of shape {dims}: a graph's inputs bind sizes by name")
    return f"{dtype_of(node)}[{', '.join(str(d) for d in dims) or '1'}]"


def _name(node) -> str:
    return node.name + "_" if node.name in KEYWORDS else node.name


def _scalar(x) -> str:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise Unsupported(f"argument {x!r} is not a number")
    return repr(float(x))


def _target(node) -> str:
    t = node.target
    if t is operator.getitem:
        return "getitem"
    name = getattr(t, "__name__", str(t))  # "add.Tensor"
    return name.split(".")[0]


def describe(node) -> str:
    """`aten.addmm(arg4_1, view, t)`: the node as a comment in the generated .hds."""
    def arg(x):
        if hasattr(x, "op"):
            return x.name
        if isinstance(x, (list, tuple)):
            return "[" + ", ".join(arg(y) for y in x) + "]"
        return repr(x)
    name = str(getattr(node.target, "__name__", node.target)).removesuffix(".default")
    op = "getitem" if node.target is operator.getitem else f"aten.{name}"
    args = [arg(x) for x in node.args] + [f"{k}={arg(v)}" for k, v in node.kwargs.items()]
    return f"{op}({', '.join(args)})"


def _dim(d: int, rank: int) -> int:
    return d + rank if d < 0 else d


def expression(node, ref) -> str:
    """The .hds expression of `node`; `ref(arg)` names an argument node. Raises
    Unsupported for nodes hds does not run (the partitioner leaves them to eager)."""
    op, a = _target(node), node.args
    if node.op != "call_function":
        raise Unsupported(f"{node.op}")
    if op == "getitem":
        src, i = a
        if _target(src) in ITEM0 and i == 0:
            return _tuple_item(src, ref)
        if _target(src) == "split":
            x, size = src.args[0], src.args[1]
            axis = _dim(src.args[2] if len(src.args) > 2 else 0, len(shape_of(x)))
            end = min((i + 1) * size, shape_of(x)[axis])
            return f"slice({ref(x)}, axis={axis}, start={i * size}, end={end})"
        raise Unsupported(f"item {i} of {_target(src)}")
    dtype_of(node)  # a float result
    if op in UNARY:
        return f"{UNARY[op]}({ref(a[0])})"
    if op == "gelu":
        if node.kwargs.get("approximate", "none") != "none":
            raise Unsupported("gelu(approximate='tanh')")
        return f"gelu({ref(a[0])})"
    if op in BINARY:
        if node.kwargs.get("alpha", 1) != 1:
            raise Unsupported("alpha != 1")
        x, y = a
        left = ref(x) if hasattr(x, "op") else _scalar(x)
        right = ref(y) if hasattr(y, "op") else _scalar(y)
        for t in (x, y):
            if hasattr(t, "op") and dtype_of(t) != dtype_of(node):
                raise Unsupported("operands of different dtypes")
        return f"({left} {BINARY[op]} {right})"
    if op == "pow" and not hasattr(a[1], "op") and a[1] == 2:
        return f"({ref(a[0])} * {ref(a[0])})"
    if op in VIEWS:
        return f"reshape({ref(a[0])}, shape=[{', '.join(str(d) for d in shape_of(node))}])"
    if op == "t":
        return f"transpose({ref(a[0])})"
    if op == "transpose":
        rank = len(shape_of(a[0]))
        dims = list(range(rank))
        i, j = _dim(a[1], rank), _dim(a[2], rank)
        dims[i], dims[j] = dims[j], dims[i]
        return f"permute({ref(a[0])}, dims={dims})"
    if op == "permute":
        rank = len(shape_of(a[0]))
        return f"permute({ref(a[0])}, dims={[_dim(d, rank) for d in a[1]]})"
    if op == "slice":
        x = a[0]
        rank, shape = len(shape_of(x)), shape_of(x)
        axis = _dim(a[1] if len(a) > 1 else 0, rank)
        start = a[2] if len(a) > 2 and a[2] is not None else 0
        end = a[3] if len(a) > 3 and a[3] is not None else shape[axis]
        if not isinstance(shape[axis], int) or not isinstance(start, int) or not isinstance(end, int):
            raise Unsupported("slice of a symbolic dimension")
        if (len(a) > 4 and a[4] != 1) or start < 0 or end < 0:
            raise Unsupported("slice with a step or from the end")
        return f"slice({ref(x)}, axis={axis}, start={start}, end={min(end, shape[axis])})"
    if op == "cat":
        parts, rank = a[0], len(shape_of(node))
        axis = _dim(a[1] if len(a) > 1 else 0, rank)
        text = ref(parts[0])
        for p in parts[1:]:
            text = f"concat({text}, {ref(p)}, axis={axis})"
        return text
    if op == "convolution":
        x, w, bias, stride, padding, dilation, transposed, _, groups = a
        if (transposed or groups != 1 or len(stride) != 2 or len(set(stride)) != 1 or len(set(padding)) != 1
                or set(dilation) != {1}):
            raise Unsupported("convolution other than 2-D, square stride and padding, no dilation or groups")
        conv = f"conv2d({ref(x)}, {ref(w)}, stride={stride[0]}, pad={padding[0]})"
        if bias is None:
            return conv
        return f"({conv} + reshape({ref(bias)}, shape=[{shape_of(w)[0]}, 1, 1]))"
    if op == "mm":
        return f"matmul({ref(a[0])}, {ref(a[1])})"
    if op == "bmm":
        return f"bmm({ref(a[0])}, {ref(a[1])})"
    if op == "addmm":
        if node.kwargs.get("beta", 1) != 1 or node.kwargs.get("alpha", 1) != 1:
            raise Unsupported("addmm with beta or alpha")
        return f"(matmul({ref(a[1])}, {ref(a[2])}) + {ref(a[0])})"
    if op == "_softmax":
        if _dim(a[1], len(shape_of(a[0]))) != len(shape_of(a[0])) - 1 or a[2]:
            raise Unsupported("softmax over another dimension than the last")
        return f"softmax({ref(a[0])})"
    if op in ("mean", "sum") and len(a) >= 2:
        rank = len(shape_of(a[0]))
        axes = sorted(_dim(d, rank) for d in a[1])
        if node.kwargs.get("dtype") is not None:
            raise Unsupported(f"{op} with a dtype")
        reduced = f"{op}({ref(a[0])})" if axes == [rank - 1] else f"{op}({ref(a[0])}, axes={axes})"
        keep = a[2] if len(a) > 2 else node.kwargs.get("keepdim", False)
        return f"reshape({reduced}, shape=[{', '.join(str(d) for d in shape_of(node))}])" if keep else reduced
    if op == "_to_copy":
        to = dtype_of(node)
        return f"to_{to}({ref(a[0])})"
    raise Unsupported(f"aten.{op}")


def max_pool_args(src) -> str:
    """`k=.., stride=.., pad=..` of a max_pool2d_with_indices node (square windows, strides and padding)."""
    a = src.args
    k = a[1]
    stride = a[2] if len(a) > 2 and a[2] else k
    padding = a[3] if len(a) > 3 else [0, 0]
    dilation = a[4] if len(a) > 4 else [1, 1]
    ceil = a[5] if len(a) > 5 else False
    if len(set(k)) != 1 or len(set(stride)) != 1 or len(set(padding)) != 1 or set(dilation) != {1} or ceil:
        raise Unsupported("max_pool2d with dilation, ceil_mode, or windows or padding not square")
    return f"k={k[0]}, stride={stride[0]}, pad={padding[0]}"


def _tuple_item(src, ref) -> str:
    op, a = _target(src), src.args
    if op == "_native_batch_norm_legit_no_training":  # inference: folded into a scale and a shift per channel
        x, w, b, mean, var, _, eps = a
        if w is None or b is None:
            raise Unsupported("batch norm without weight and bias")
        c = [shape_of(x)[1]] + [1] * (len(shape_of(x)) - 2)
        scale = f"reshape(rsqrt({ref(var)} + {_scalar(eps)}) * {ref(w)}, shape={c})"
        return f"(({ref(x)} - reshape({ref(mean)}, shape={c})) * {scale} + reshape({ref(b)}, shape={c}))"
    if op == "max_pool2d_with_indices":
        return f"max_pool2d({ref(a[0])}, {max_pool_args(src)})"
    if op == "native_layer_norm":
        x, normalized, w, b, eps = a
        if len(normalized) != 1 or w is None or b is None:
            raise Unsupported("layer_norm over several dimensions or without weight and bias")
        return f"layer_norm({ref(x)}, {ref(w)}, {ref(b)}, eps={_scalar(eps)})"
    # scaled_dot_product_*: (q, k, v, ...), dropout 0, causal as given
    q, k, v = a[:3]
    kw = dict(src.kwargs)
    positional = {"_scaled_dot_product_flash_attention_for_cpu": ["dropout_p", "is_causal"],
                  "_scaled_dot_product_flash_attention": ["dropout_p", "is_causal", "return_debug_mask"],
                  "_scaled_dot_product_efficient_attention": ["attn_bias", "compute_log_sumexp", "dropout_p",
                                                              "is_causal"],
                  "_scaled_dot_product_cudnn_attention": ["attn_bias", "compute_log_sumexp", "dropout_p",
                                                          "is_causal", "return_debug_mask"]}[op]
    kw.update(zip(positional, a[3:]))
    if kw.get("dropout_p", 0.0) != 0.0 or kw.get("attn_bias") is not None or kw.get("attn_mask") is not None:
        raise Unsupported("attention with dropout or a mask tensor")
    scale = kw.get("scale") or 1.0 / math.sqrt(shape_of(q)[-1])
    causal = 1 if kw.get("is_causal") else 0
    return f"attention({ref(q)}, {ref(k)}, {ref(v)}, scale={_scalar(scale)}, causal={causal})"


def supported(node) -> str | None:
    """None when hds runs `node`, else why not."""
    try:
        if node.op != "call_function":
            return node.op
        if _target(node) in TUPLES:
            # tuples: run when every user is an item hds runs
            for user in node.users:
                expression(user, lambda n: "x")
            return None
        expression(node, lambda n: "x")
        return None
    except Unsupported as e:
        return str(e)


def translate(gm, name: str, header: str, channels_last: bool = False) -> tuple[str, list[tuple[str, list[int]]]]:
    """A partition (FX GraphModule of ATen nodes) as .hds text with one graph per
    output: `NAME_0`, `NAME_1`, ...; returns the text and, per graph, its name and
    the indices of the partition's inputs it takes. `channels_last`: the convolutions
    that gain by it run NHWC (_layout.py)."""
    from . import _layout

    nhwc = _layout.plan(gm, channels_last)
    converted: dict = {}  # (node, NHWC?) -> the name of its permuted copy, made once

    def view(n, want_nhwc: bool) -> str:
        text = _layout.ref_in(n, nhwc, want_nhwc, _name)
        if text != _name(n) and (n, want_nhwc) not in converted:
            converted[(n, want_nhwc)] = f"{_name(n)}_{'nhwc' if want_nhwc else 'nchw'}"
            lines.append(f"    let {converted[(n, want_nhwc)]} = {text};  // {_name(n)} as "
                         f"{'NHWC, for channels-last convolutions' if want_nhwc else 'NCHW'}")
        return converted.get((n, want_nhwc), text)

    def act(n):  # a 4-D operand of a node held NHWC
        return view(n, True)

    def plain(n):  # an operand of any other node
        return view(n, False)

    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    out = next(n for n in gm.graph.nodes if n.op == "output")
    results = out.args[0] if isinstance(out.args[0], (tuple, list)) else [out.args[0]]
    lines, graphs = [header], []
    for k, result in enumerate(results):
        cone, stack = [], [result]
        while stack:  # the nodes this output needs
            n = stack.pop()
            if n in cone or not hasattr(n, "op"):
                continue
            cone.append(n)
            stack.extend(x for x in list(n.args) + list(n.kwargs.values()) if hasattr(x, "op"))
            for x in n.args:
                if isinstance(x, (list, tuple)):
                    stack.extend(y for y in x if hasattr(y, "op"))
        # Tensors only: a symbolic size that comes in as a number is bound from the shapes.
        params = [i for i, p in enumerate(placeholders) if p in cone and is_tensor(p)]
        gname = f"{name}_{k}"
        sig = ", ".join(f"{_name(placeholders[i])}: {type_of(placeholders[i], parameter=True)}" for i in params)
        lines.append(f"graph {gname}({sig}) -> {type_of(result)} {{")
        converted.clear()
        for n in gm.graph.nodes:
            if n not in cone or n.op == "placeholder" or _target(n) in TUPLES:
                continue  # tuples are read through their items
            if n.users and all(u in nhwc and _layout.per_channel(n, u) for u in n.users):
                continue  # a [C, 1, 1] view that NHWC values read as the vector it views
            text = (_layout.expression(n, act, _name) if n in nhwc
                    else _layout.reduce_expression(n, nhwc, _name) or expression(n, plain))
            lines.append(f"    let {_name(n)} = {text};  // {describe(n)}{' (NHWC)' if n in nhwc else ''}")
        if result.op == "placeholder":
            raise Unsupported("an output that is an input")
        lines.append(f"    return {plain(result)};")
        lines.append("}")
        graphs.append((gname, params))
    return "\n".join(lines) + "\n", graphs
