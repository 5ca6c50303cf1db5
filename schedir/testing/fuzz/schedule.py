"""Random transform schedules for a generated payload, in upstream syntax.

A schedule is a list of steps; each step re-matches the ops it works on (by name, split
when several ops share it), so a step never uses a handle an earlier step invalidated.
Phases, each optional: tiling (`tile_using_for`/`tile_using_forall` with sizes or
`num_threads`, 0 and non-dividing sizes included, `structured.fuse`), fusing the producer
into the new loop, `unroll`/`peel` of a new loop, `generalize` and `interchange`,
canonicalization and CSE, vectorization (one op or a whole function), one-shot
bufferization (with or without function boundaries, with a layout), and after it the
hoisting of vector transfers and the vector lowering patterns. A tiling step may sit in a
`transform.tune.alternatives` with its selected region; `Schedule.upstream` is then the
same schedule with the selected region inlined, for upstream's interpreter (which lacks
the `tune` ops).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from schedir.testing.fuzz.payload import Op, Payload

ANY = "!transform.any_op"


@dataclass(frozen=True)
class Step:
    """Lines of one schedule step; `choice` wraps them in a tune.alternatives."""

    lines: tuple[str, ...]
    choice: tuple[tuple[str, ...], ...] = ()
    """Other regions of the alternatives (the selected one is `lines`), if any."""
    selected: int = 0


@dataclass(frozen=True)
class Schedule:
    """A generated schedule: its steps and whether it consumes the root."""

    steps: tuple[Step, ...]
    consumes_root: bool

    def render(self, *, upstream: bool = False) -> str:
        """The schedule module; `upstream` inlines tune.alternatives (iree-opt lacks it)."""
        mode = "transform.consumed" if self.consumes_root else "transform.readonly"
        lines = [
            "module attributes {transform.with_named_sequence} {",
            f"  transform.named_sequence @__transform_main(%root: {ANY} {{{mode}}}) {{",
        ]
        for index, step in enumerate(self.steps):
            if not step.choice or upstream:
                lines += [f"    {line}" for line in step.lines]
                continue
            regions = list(step.choice)
            regions.insert(step.selected, step.lines)
            lines.append(
                f'    transform.tune.alternatives<"choice{index}"> '
                f"selected_region = {step.selected} {{"
            )
            for r, region in enumerate(regions):
                if r:
                    lines.append("    }, {")
                lines += [f"      {line}" for line in region]
                lines.append("      transform.yield")
            lines.append("    }")
        lines += ["    transform.yield", "  }", "}"]
        return "\n".join(lines) + "\n"


class _Gen:
    def __init__(self, rng: random.Random, payload: Payload) -> None:
        self.rng = rng
        self.payload = payload
        self.names = [op.op_name for op in payload.structured]
        self.counter = 0
        self.root = "%root"
        self.exact_counts = True

    def fresh(self) -> str:
        self.counter += 1
        return f"%h{self.counter}"

    def match(self, name: str, root: str | None = None) -> tuple[list[str], str]:
        h = self.fresh()
        line = (
            f'{h} = transform.structured.match ops{{["{name}"]}} in {root or self.root} '
            f": ({ANY}) -> {ANY}"
        )
        return [line], h

    def select(self, index: int) -> tuple[list[str], str]:
        """Lines that give a handle to structured op `index` (all ops of its name when
        earlier steps may have changed how many there are)."""
        name = self.names[index]
        lines, h = self.match(name)
        same = [i for i, n in enumerate(self.names) if n == name]
        if len(same) == 1 or not self.exact_counts:
            return lines, h
        parts = [self.fresh() for _ in same]
        types = ", ".join([ANY] * len(parts))
        lines.append(f"{', '.join(parts)} = transform.split_handle {h} : ({ANY}) -> ({types})")
        return lines, parts[same.index(index)]

    def func(self) -> tuple[list[str], str]:
        return self.match("func.func")

    def sizes(self, op: Op, count: int) -> list[int]:
        extents = _extents(op)
        out = []
        for i in range(count):
            extent = extents[i] if i < len(extents) else 1
            roll = self.rng.random()
            if roll < 0.25:
                out.append(0)
            elif roll < 0.5:
                out.append(self.rng.randint(1, 4))
            elif roll < 0.75 and extent > 1:
                out.append(self.rng.randint(1, extent))  # often not dividing
            else:
                out.append(self.rng.choice((2, 3, 4, 8, 16)))
        return out

    def tile(self, index: int) -> list[str]:
        op = self.payload.structured[index]
        loops = len(op.iterators)
        if loops == 0:
            return []
        lines, h = self.select(index)
        t = self.fresh()
        kind = self.rng.choice(("for", "for", "forall", "fuse"))
        sizes = self.sizes(op, self.rng.randint(1, loops))
        text = ", ".join(map(str, sizes))
        n = sum(1 for s in sizes if s)
        loop_handles = [self.fresh() for _ in range(n if kind != "forall" else 1)]
        results = ", ".join([t, *loop_handles])
        types = ", ".join([ANY] * (1 + len(loop_handles)))
        if kind in ("forall", "fuse"):
            # A forall over a reduction dimension races (upstream warns "tiling is not
            # thread safe"), and upstream's structured.fuse re-fills a fused accumulator
            # in every reduction tile: both give undefined or wrong results upstream too,
            # so reduction dims stay untiled there.
            sizes = [0 if op.iterators[i] == "reduction" else s for i, s in enumerate(sizes)]
            text = ", ".join(map(str, sizes))
            n = sum(1 for s in sizes if s)
            loop_handles = [self.fresh() for _ in range(n if kind != "forall" else 1)]
            results = ", ".join([t, *loop_handles])
            types = ", ".join([ANY] * (1 + len(loop_handles)))
        if kind == "forall":
            which = self.rng.choice(("tile_sizes", "num_threads"))
            lines.append(
                f"{results} = transform.structured.tile_using_forall {h} {which} [{text}] "
                f": ({ANY}) -> ({types})"
            )
        else:
            interchange = ""
            if self.rng.random() < 0.25 and len(sizes) > 1:
                perm = list(range(len(sizes)))
                self.rng.shuffle(perm)
                eq = " =" if kind == "for" else ""
                interchange = f" interchange{eq} [{', '.join(map(str, perm))}]"
            opname = "tile_using_for" if kind == "for" else "fuse"
            lines.append(
                f"{results} = transform.structured.{opname} {h} tile_sizes [{text}]{interchange} "
                f": ({ANY}) -> ({types})"
            )
        if not loop_handles:
            return lines
        loop = loop_handles[0]
        roll = self.rng.random()
        producers = self.producers(index)
        if roll < 0.5 and producers and kind != "fuse":
            p_lines, p = self.select(self.rng.choice(producers))
            lines += p_lines
            f1, f2 = self.fresh(), self.fresh()
            lines.append(
                f"{f1}, {f2} = transform.structured.fuse_into_containing_op {p} into {loop} "
                f": ({ANY}, {ANY}) -> ({ANY}, {ANY})"
            )
        elif roll < 0.7 and kind != "forall":
            inner = loop_handles[-1]
            if self.rng.random() < 0.5:
                factor = self.rng.choice((2, 3, 4))
                lines.append(f"transform.loop.unroll {inner} factor = {factor} : {ANY}")
            else:
                a, b, c = self.fresh(), self.fresh(), self.fresh()
                lines.append(f'{c} = transform.cast {inner} : {ANY} to !transform.op<"scf.for">')
                lines.append(
                    f'{a}, {b} = transform.loop.peel {c} : (!transform.op<"scf.for">) '
                    f"-> ({ANY}, {ANY})"
                )
            self.exact_counts = False
        return lines

    def producers(self, index: int) -> list[int]:
        """Structured ops whose results op `index` reads (its fill and the op before it)."""
        ops = self.payload.structured
        target = ops[index]
        read = {v.name for v in target.operands} | (
            {target.init.name} if target.init is not None else set()
        )
        return [i for i, op in enumerate(ops[:index]) if op.result.name in read]

    def generalize(self, index: int) -> list[str]:
        op = self.payload.structured[index]
        lines, h = self.select(index)
        g = self.fresh()
        lines.append(f"{g} = transform.structured.generalize {h} : ({ANY}) -> {ANY}")
        self.names[index] = "linalg.generic"
        if self.rng.random() < 0.5 and len(op.iterators) > 1:
            perm = list(range(len(op.iterators)))
            self.rng.shuffle(perm)
            i = self.fresh()
            lines.append(
                f"{i} = transform.structured.interchange {g} "
                f"iterator_interchange = [{', '.join(map(str, perm))}] : ({ANY}) -> {ANY}"
            )
        return lines

    def cleanup(self) -> list[str]:
        lines, f = self.func()
        if self.rng.random() < 0.7:
            lines.append(
                f"transform.apply_patterns to {f} {{ transform.apply_patterns.canonicalization }} "
                f": {ANY}"
            )
        if self.rng.random() < 0.6:
            lines.append(f"transform.apply_cse to {f} : {ANY}")
        self.exact_counts = False
        return lines

    def vectorize(self) -> list[str]:
        if self.rng.random() < 0.5:
            lines, f = self.func()
            v = self.fresh()
            lines.append(
                f"{v} = transform.structured.vectorize_children_and_apply_patterns {f} "
                f": ({ANY}) -> {ANY}"
            )
        else:
            lines, h = self.select(self.rng.randrange(len(self.names)))
            lines.append(f"transform.structured.vectorize {h} : {ANY}")
        self.exact_counts = False
        return lines

    def bufferize(self) -> list[str]:
        root = self.fresh()
        layout = self.rng.choice(
            ("", "layout{IdentityLayoutMap} ", "layout{FullyDynamicLayoutMap} ")
        )
        boundaries = self.rng.random() < 0.6
        props = " <{bufferize_function_boundaries = true}>" if boundaries else ""
        if not boundaries:
            layout = ""  # the function-boundary layout option needs the boundaries
        lines = [
            f"{root} = transform.bufferization.one_shot_bufferize {layout}{self.root}{props} "
            f": ({ANY}) -> {ANY}"
        ]
        self.root = root
        roll = self.rng.random()
        if roll < 0.4:
            f_lines, f = self.func()
            lines += f_lines
            hoisted = self.fresh()
            lines.append(
                f"{hoisted} = transform.structured.hoist_redundant_vector_transfers {f} "
                f": ({ANY}) -> {ANY}"
            )
        elif roll < 0.7:
            f_lines, f = self.func()
            lines += f_lines
            lines += [
                f"transform.apply_patterns to {f} {{",
                "  transform.apply_patterns.vector.lower_contraction lowering_strategy = outerproduct",
                "  transform.apply_patterns.vector.transfer_permutation_patterns",
                "  transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1",
                "  transform.apply_patterns.vector.lower_broadcast",
                "  transform.apply_patterns.canonicalization",
                f"}} : {ANY}",
            ]
        return lines


def _extents(op: Op) -> list[int]:
    """Loop extents of a structured op, in loop order (best effort, for tile sizes)."""
    shape = list(op.result.shape)
    if op.kind in ("matmul", "batch_matmul", "matvec"):
        return [*shape, op.operands[0].shape[-1]]
    if op.kind.startswith("reduce"):
        return list(op.operands[0].shape)
    if op.kind == "conv":
        kh, kw, c, _ = op.operands[1].shape
        return [*shape, kh, kw, c]
    return shape


def gen_schedule(rng: random.Random, payload: Payload) -> Schedule:
    """A random schedule for `payload` (see the module docstring), drawn from `rng`."""
    g = _Gen(rng, payload)
    steps: list[Step] = []
    count = len(payload.structured)
    # Consumers first: tiling the last op first leaves its producers to fuse.
    for index in sorted(rng.sample(range(count), rng.randint(0, min(2, count))), reverse=True):
        lines = g.tile(index)
        if not lines:
            continue
        if rng.random() < 0.15:
            other = _Gen(rng, payload)
            other.counter = g.counter + 100
            alt = other.tile(index)
            g.counter = other.counter
            selected = rng.randrange(2)
            if selected == 1:  # the step generated first is the one that runs
                steps.append(Step(tuple(lines), (tuple(alt),), 1))
            else:
                steps.append(Step(tuple(lines), (tuple(alt),), 0))
        else:
            steps.append(Step(tuple(lines)))
    if rng.random() < 0.3:
        steps.append(Step(tuple(g.generalize(rng.randrange(count)))))
    if rng.random() < 0.5:
        steps.append(Step(tuple(g.cleanup())))
    if rng.random() < 0.4:
        steps.append(Step(tuple(g.vectorize())))
        if rng.random() < 0.5:
            steps.append(Step(tuple(g.cleanup())))
    bufferize = rng.random() < 0.4
    if bufferize:
        steps.append(Step(tuple(g.bufferize())))
    return Schedule(tuple(steps), consumes_root=bufferize)
