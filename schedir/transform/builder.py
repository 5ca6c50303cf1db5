"""Build transform schedules from Python, for scripting experiments.

    from schedir.transform.builder import Schedule

    s = Schedule()
    mm = s.match(s.root, ops=["linalg.matmul"])
    tiled, forall = s.tile_using_forall(mm, tile_sizes=[64, 32], mapping=["block<y>", "block<x>"])
    k_tiled, k_loop = s.tile_using_for(tiled, tile_sizes=[0, 0, 16])
    print(s.to_mlir())           # upstream syntax: runs in mlir-opt --transform-interpreter too

A `Schedule` records transform ops as upstream MLIR text, one op per line, in a named
sequence (`@__transform_main` by default). The text is the schedule: printing it,
parsing it back and applying it gives exactly the schedule that was built. `Handle`s are
the SSA values; methods return new handles for the op's results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

ANY_OP = "!transform.any_op"
ANY_PARAM = "!transform.any_param"
ANY_VALUE = "!transform.any_value"


@dataclass(frozen=True)
class Handle:
    """A transform value: its SSA name and type."""

    name: str
    type: str = ANY_OP

    def __str__(self) -> str:
        return self.name


Size = int | Handle
"""A tile size: static, or a param/op handle."""


@dataclass
class Schedule:
    """A named sequence under construction; `to_mlir()` gives the module text."""

    name: str = "__transform_main"
    root_consumed: bool = False
    _lines: list[str] = field(default_factory=list)
    _counter: int = 0
    _extra: list[str] = field(default_factory=list)

    @property
    def root(self) -> Handle:
        return Handle("%root")

    # --- generic -------------------------------------------------------------------------

    def _fresh(self, hint: str = "h") -> str:
        self._counter += 1
        return f"%{hint}{self._counter}"

    def op(
        self,
        name: str,
        operands: Sequence[Handle] = (),
        results: Sequence[str] = (),
        *,
        body: str = "",
        trailing_type: str | None = None,
        hint: str = "h",
    ) -> tuple[Handle, ...]:
        """Append `%r... = transform.<name> <body> : <type>` and return the result handles.

        `body` is the op's custom syntax between the name and the colon (it may refer to
        operands by their names); the type defaults to the functional type of operands and
        results, or `trailing_type` for ops whose syntax ends with a single type.
        """
        handles = tuple(Handle(self._fresh(hint), t) for t in results)
        lhs = f"{', '.join(h.name for h in handles)} = " if handles else ""
        if trailing_type is not None:
            type_text = trailing_type
        else:
            ins = ", ".join(h.type for h in operands)
            outs = ", ".join(results)
            outs = f"({outs})" if len(results) != 1 else outs
            type_text = f"({ins}) -> {outs}" if results else ins
        text = f"{lhs}transform.{name} {body}".rstrip()
        self._lines.append(f"{text} : {type_text}" if type_text else text)
        return handles

    # --- core ----------------------------------------------------------------------------

    def match(
        self,
        target: Handle,
        *,
        ops: Sequence[str] = (),
        interface: str | None = None,
        attributes: Sequence[str] = (),
    ) -> Handle:
        """`transform.structured.match` of ops nested in `target`."""
        parts = []
        if ops:
            parts.append("ops{[" + ", ".join(f'"{o}"' for o in ops) + "]}")
        if interface:
            parts.append(f"interface{{{interface}}}")
        if attributes:
            parts.append("attributes{" + ", ".join(attributes) + "}")
        body = " ".join(parts) + f" in {target}"
        return self.op("structured.match", [target], [ANY_OP], body=body, hint="m")[0]

    def param(self, value: int, type: str = "i64") -> Handle:
        """`transform.param.constant`."""
        handle = Handle(self._fresh("p"), f"!transform.param<{type}>")
        self._lines.append(f"{handle} = transform.param.constant {value} : {type} -> {handle.type}")
        return handle

    def knob(self, name: str, options: Sequence[int], default: int | None = None) -> Handle:
        """`transform.tune.knob`: a tunable value the autotuner fills in (`selected`)."""
        handle = Handle(self._fresh("k"), ANY_PARAM)
        choices = ", ".join(str(o) for o in options)
        selected = f" = {default}" if default is not None else ""
        self._lines.append(
            f'{handle} = transform.tune.knob<"{name}">{selected} from options = [{choices}] -> {ANY_PARAM}'
        )
        return handle

    def get_parent_op(self, target: Handle, op_name: str | None = None) -> Handle:
        props = f' <{{op_name = "{op_name}"}}>' if op_name else ""
        return self.op("get_parent_op", [target], [ANY_OP], body=f"{target}{props}", hint="parent")[
            0
        ]

    def split_handle(self, target: Handle, count: int) -> tuple[Handle, ...]:
        return self.op("split_handle", [target], [ANY_OP] * count, body=str(target), hint="s")

    def merge_handles(self, *handles: Handle, deduplicate: bool = False) -> Handle:
        flag = "deduplicate " if deduplicate else ""
        body = flag + ", ".join(str(h) for h in handles)
        return self.op(
            "merge_handles", handles, [ANY_OP], body=body, trailing_type=handles[0].type
        )[0]

    def annotate(self, target: Handle, name: str) -> None:
        self.op("annotate", [target], body=f'{target} "{name}"', trailing_type=target.type)

    def apply_cse(self, target: Handle) -> None:
        self.op("apply_cse", [target], body=f"to {target}", trailing_type=target.type)

    def apply_patterns(self, target: Handle, patterns: Sequence[str]) -> None:
        """`transform.apply_patterns to %t { transform.apply_patterns.<p> ... }`."""
        inner = " ".join(f"transform.apply_patterns.{p}" for p in patterns)
        self.op(
            "apply_patterns", [target], body=f"to {target} {{ {inner} }}", trailing_type=target.type
        )

    # --- structured ----------------------------------------------------------------------

    @staticmethod
    def _sizes(sizes: Sequence[Size]) -> str:
        return "[" + ", ".join(str(s) for s in sizes) + "]"

    def tile_using_for(
        self, target: Handle, tile_sizes: Sequence[Size], interchange: Sequence[int] = ()
    ) -> tuple[Handle, ...]:
        """Returns (tiled op, loop per non-zero size)."""
        loops = sum(1 for s in tile_sizes if not (isinstance(s, int) and s == 0))
        body = f"{target} tile_sizes {self._sizes(tile_sizes)}"
        if interchange:
            body += f" interchange = {list(interchange)}"
        dynamic = [s for s in tile_sizes if isinstance(s, Handle)]
        return self.op(
            "structured.tile_using_for",
            [target, *dynamic],
            [ANY_OP] * (1 + loops),
            body=body,
            hint="t",
        )

    def tile_using_forall(
        self,
        target: Handle,
        *,
        tile_sizes: Sequence[Size] | None = None,
        num_threads: Sequence[Size] | None = None,
        mapping: Sequence[str] = (),
    ) -> tuple[Handle, Handle]:
        """Returns (tiled op, forall); `mapping` items such as "block<y>" or "#gpu.thread<x>"."""
        if (tile_sizes is None) == (num_threads is None):
            raise ValueError("give exactly one of tile_sizes and num_threads")
        kind, sizes = (
            ("tile_sizes", tile_sizes) if tile_sizes is not None else ("num_threads", num_threads)
        )
        assert sizes is not None
        body = f"{target} {kind} {self._sizes(sizes)}"
        if mapping:
            attrs = ", ".join(m if m.startswith("#") else f"#gpu.{m}" for m in mapping)
            body += f" (mapping = [{attrs}])"
        dynamic = [s for s in sizes if isinstance(s, Handle)]
        tiled, forall = self.op(
            "structured.tile_using_forall",
            [target, *dynamic],
            [ANY_OP, ANY_OP],
            body=body,
            hint="t",
        )
        return tiled, forall

    def fuse_into_containing_op(
        self, producer: Handle, containing: Handle
    ) -> tuple[Handle, Handle]:
        """Returns (fused op, new containing op)."""
        fused, loop = self.op(
            "structured.fuse_into_containing_op",
            [producer, containing],
            [ANY_OP, ANY_OP],
            body=f"{producer} into {containing}",
            hint="f",
        )
        return fused, loop

    def generalize(self, target: Handle) -> Handle:
        return self.op("structured.generalize", [target], [ANY_OP], body=str(target), hint="g")[0]

    # --- text ----------------------------------------------------------------------------

    def to_mlir(self, *, module: bool = True) -> str:
        """The schedule as upstream MLIR text (a module with the named sequence)."""
        attr = "transform.consumed" if self.root_consumed else "transform.readonly"
        lines = [f"transform.named_sequence @{self.name}(%root: {ANY_OP} {{{attr}}}) {{"]
        lines += [f"  {line}" for line in self._lines]
        lines += ["  transform.yield", "}"]
        if not module:
            return "\n".join(lines) + "\n"
        inner = "\n".join(f"  {line}" for line in lines)
        return f"module attributes {{transform.with_named_sequence}} {{\n{inner}\n}}\n"


__all__ = ["ANY_OP", "ANY_PARAM", "ANY_VALUE", "Handle", "Schedule"]
