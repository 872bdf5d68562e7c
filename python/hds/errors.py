"""The exceptions of the hds package."""
from __future__ import annotations


class HdsError(RuntimeError):
    """hds could not do what was asked (a tool missing, a run that failed)."""


class CompileError(HdsError):
    """hdsc rejected the source (its diagnostics are the message), or nvcc failed."""


class ArgumentError(ValueError):
    """A call whose arguments do not fit the graph: the message names the
    parameter, what it expected and what it got. Nothing was launched."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong Python type, or a missing or extra one."""


class HdsWarning(UserWarning):
    """hdsc's warnings while compiling (-Wliteral-conversion, -Wsm80-shared-memory, ...)."""
