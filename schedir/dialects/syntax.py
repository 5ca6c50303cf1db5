"""Reading and writing MLIR text: parse with source locations, verify, print.

xDSL's parser does not record where an op came from. `parse_module` uses a parser that
stamps every op with a `FileLineColLoc` of its first token (the first result name, as MLIR
does), so every later diagnostic can point at the line and column the user wrote.
Parse and verifier failures become `schedir.diagnostics` errors, never Python tracebacks.
"""

from __future__ import annotations

import io
import math
import re
import struct
import warnings
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import cast

import ml_dtypes
import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    CallSiteLoc,
    ComplexType,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    FloatAttr,
    FusedLoc,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NameLoc,
    StringAttr,
    TensorType,
    UnknownLoc,
    UnregisteredOp,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap, AffineSet
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.parser.generic_parser import ParserState
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoTerminator, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import ParseError as XdslParseError
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from schedir.diagnostics import (
    Location,
    MultipleErrors,
    Note,
    ParseError,
    SourceManager,
    VerifyError,
)
from schedir.dialects.context import get_context
from schedir.dialects.dominance import DominanceInfo, dominance_failure
from schedir.dialects.mlir_style import MlirPrinter, restyle
from schedir.dialects.semi_affine import SemiAffineParser
from schedir.dialects.utils import LocatedVerifyException

_UNREGISTERED = re.compile(r"Operation (\S+) is not registered")


_INT64_MAX = 2**63 - 1

_FLOAT_LITERAL = re.compile(r"\s*-?\s*[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?")
"""A decimal float literal (MLIR's `[-+]?[0-9]+[.][0-9]*([eE][-+]?[0-9]+)?`), after an optional `-`."""

_NARROW_FLOATS: dict[type[Attribute], np.dtype] = {
    Float16Type: np.dtype(np.float16),
    BFloat16Type: np.dtype(ml_dtypes.bfloat16),
    Float32Type: np.dtype(np.float32),
}


def round_to_float_type(value: float, type: AnyFloat) -> float:
    """`value` rounded to the nearest value of `type`, overflowing to +-inf.

    MLIR converts a decimal literal with APFloat's round-to-nearest-even: `1.0e39 : f32` is
    `0x7F800000` (+inf), `1.0e-50 : f32` is 0. xDSL packs the Python float with `struct`,
    which raises OverflowError instead.
    """
    dtype = _NARROW_FLOATS.get(type.__class__)
    if dtype is None:
        return value
    with warnings.catch_warnings(), np.errstate(over="ignore", under="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(np.asarray(value, dtype=np.float64).astype(dtype))


class _Lexer(MLIRLexer):
    """xDSL's lexer with a string-literal pattern that cannot backtrack.

    xDSL's pattern nests `[^"...]+` in `(...)*`: on an unterminated string (a stray `"`)
    it tries every split of the rest of the line, exponential in its length, so the
    parser hangs. Possessive quantifiers match the same strings in linear time.
    """

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')


class LocatedParser(Parser):
    """An xDSL parser that stamps each op with the file:line:col of its first token."""

    def __init__(
        self, ctx: Context, text: str, name: str, sources: SourceManager, offset: int = 0
    ) -> None:
        # Parser.__init__, with the lexer that cannot hang (it lexes the first token here).
        super(Parser, self).__init__(ParserState(_Lexer(Input(text, name))), ctx)
        self.ssa_values = {}
        self.blocks = {}
        self.forward_block_references = defaultdict(list)
        self.forward_ssa_references = {}
        self._file = name
        self._sources = sources
        self._offset = offset
        self._forward_uses: dict[str, Span] = {}
        self._name_positions: list[int] = []

    def _at_op_name(self, err: XdslParseError, start: int) -> XdslParseError:
        """An unknown op is reported at its name, as MLIR does, not after it."""
        match = _UNREGISTERED.match(err.msg)
        if match is None:
            return err
        name = match.group(1)
        text = self.lexer.input.content
        at = text.find(name, start)
        if at < 0:
            return err
        return XdslParseError(
            Span(at, at + len(name), self.lexer.input), f"custom op '{name}' is unknown"
        )

    @dataclass
    class _TensorLiteralElement(Parser._TensorLiteralElement):  # pyright: ignore[reportPrivateUsage]  # xDSL builds dense elements through this class attribute: round before it packs them
        """A dense literal element, rounded into its float type as a scalar literal is."""

        def to_type(
            self,
            parser: AttrParser,
            type: AnyFloat | IntegerType | IndexType | ComplexType,
        ):
            value = super().to_type(parser, type)
            if isinstance(type, AnyFloat) and isinstance(value, int | float):
                return round_to_float_type(float(value), type)
            return value

    def parse_affine_map(self) -> AffineMap:
        """An affine map, semi-affine expressions included (`semi_affine`)."""
        return SemiAffineParser(self._parser_state).parse_affine_map()

    def parse_affine_set(self) -> AffineSet:
        """An integer set, semi-affine expressions included."""
        return SemiAffineParser(self._parser_state).parse_affine_set()

    def parse_affine_map_of_ssa_ids(self) -> tuple[AffineMap, Sequence[SSAValue[IndexType]]]:
        """`[%i0, %i1 * %s]` (memory access indices), semi-affine expressions included."""
        affine_map, spans = SemiAffineParser(self._parser_state).parse_affine_map_of_ssa_ids()
        operands = [self.resolve_operand(UnresolvedOperand(span, 0), IndexType()) for span in spans]
        return affine_map, cast("list[SSAValue[IndexType]]", operands)

    def parse_optional_builtin_int_or_float_attr(self) -> IntegerAttr | FloatAttr | None:
        """xDSL's, except that a decimal float literal is rounded into its float type.

        A literal beyond the type's range is +-inf, as in MLIR (xDSL fails while packing).
        """
        start = self._current_token.span.start
        if _FLOAT_LITERAL.match(self.lexer.input.content, start) is None:
            return super().parse_optional_builtin_int_or_float_attr()
        value = self.parse_optional_number()
        if not isinstance(value, float):
            # An integer literal after all (e.g. `-` then an integer): not ours to round.
            raise AssertionError(f"float literal expected at offset {start}")
        if self._current_token.kind != MLIRTokenKind.COLON:
            return FloatAttr(value, 64)
        type = self._parse_attribute_type()
        if isinstance(type, AnyFloat):
            return FloatAttr(round_to_float_type(value, type), type)
        self.raise_error("Floating point value is not valid for integer type.")

    def resolve_operand(self, operand: UnresolvedOperand, type: Attribute) -> SSAValue:
        # Remember where a not-yet-defined value is first used: if it is never defined,
        # that use is where MLIR reports it.
        if operand.operand_name not in self.ssa_values:
            self._forward_uses.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        if self._current_token.kind == MLIRTokenKind.EOF:
            # An input holding nothing (or only comments) is an empty module, as in MLIR.
            return self._at_start(ModuleOp([]))
        try:
            return self._at_start(super().parse_module(allow_implicit_module))
        except XdslParseError:
            undefined = [n for n in self.forward_ssa_references if n in self._forward_uses]
            if not undefined:
                raise
            first = min(undefined, key=lambda n: self._forward_uses[n].start)
            raise XdslParseError(
                self._forward_uses[first], f"use of undeclared SSA value name %{first}"
            ) from None

    def _at_start(self, module: ModuleOp) -> ModuleOp:
        """An implicit module is located at the start of its text, as MLIR locates it."""
        if isinstance(module.location, UnknownLoc):
            loc = self._sources.location_of_offset(self._file, self._offset)
            module.location = FileLineColLoc(
                StringAttr(self._file), IntAttr(loc.line), IntAttr(loc.col)
            )
        return module

    def parse_shape_dimension(self, allow_dynamic: bool = True) -> int:
        # A dimension is an int64 in MLIR: a larger literal is an error at the literal,
        # worded as upstream's parser words it, not a size that overflows later stages.
        span = self._current_token.span
        size = super().parse_shape_dimension(allow_dynamic)
        if size > _INT64_MAX:
            raise XdslParseError(span, "invalid dimension")
        return size

    def _parse_op_result_list(self) -> list[tuple[Span, int]]:
        results = super()._parse_op_result_list()
        # The next token is the op's name: MLIR locates an op there, not at its results.
        self._name_positions.append(self._current_token.span.start)
        return results

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        depth = len(self._name_positions)
        try:
            op = super().parse_operation()
        except XdslParseError as err:
            raise self._at_op_name(err, start) from None
        name_at = self._name_positions[depth] if len(self._name_positions) > depth else start
        del self._name_positions[depth:]
        if isinstance(op.location, UnknownLoc):
            loc = self._sources.location_of_offset(self._file, self._offset + name_at)
            op.location = FileLineColLoc(
                StringAttr(self._file), IntAttr(loc.line), IntAttr(loc.col)
            )
        return op


def parse_module(
    text: str,
    filename: str = "<input>",
    *,
    ctx: Context | None = None,
    sources: SourceManager | None = None,
    offset: int = 0,
    verify: bool = True,
) -> ModuleOp:
    """Parse MLIR text into a module (top-level ops are wrapped as MLIR does), then verify.

    `text` starts at character `offset` of the file `filename` known to `sources` (a chunk
    of a `--split-input-file` input); locations are reported in the whole file. Raises
    `schedir.diagnostics.ParseError` or `VerifyError` pointing into `filename`.
    """
    if ctx is None:
        ctx = get_context()
    if sources is None:
        sources = SourceManager()
    if sources.text(filename) is None:
        sources.add(filename, text)
    parser: LocatedParser | None = None
    try:
        # Constructing the parser lexes the first token: it can fail as well.
        parser = LocatedParser(ctx, text, filename, sources, offset)
        module = parser.parse_module()
    except XdslParseError as err:
        raise _parse_error(err, filename, sources, offset) from None
    except (
        VerifyException,
        ValueError,
        IndexError,
        KeyError,
        TypeError,
        AssertionError,
        NotImplementedError,
        ArithmeticError,
        struct.error,
    ) as err:
        # Some xDSL custom parsers and builders fail with plain Python exceptions on bad
        # input (a value packed into a too narrow integer raises struct.error); report
        # them at the parser's current position instead of a traceback.
        message = _clean_message(str(err)) or type(err).__name__
        if isinstance(err, struct.error | OverflowError):
            message = f"value out of range for its type ({message})"
        raise ParseError(
            message,
            sources.location_of_offset(filename, offset + (parser.pos if parser else 0)),
        ) from None
    _ensure_implicit_terminators(module)
    if verify:
        verify_module(module)
    return module


def _ensure_implicit_terminators(module: ModuleOp) -> None:
    """Add the implicit terminator after an opaque op that ends a single-block region.

    xDSL's custom parsers take an opaque op (`--allow-unregistered-dialect`) that ends a
    block for its terminator (it might be one); MLIR's `ensureTerminator` asks whether
    the op is known to be one, so `scf.if %c { "foo.bar"() : () -> () }` gets its
    `scf.yield`, as the printer left it out.
    """
    for op in module.walk():
        if op.results:
            continue
        for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
            for region in op.regions:
                for block in region.blocks:
                    if isinstance(block.last_op, UnregisteredOp):
                        block.add_op(trait.op_type.create())


def _parse_error(
    err: XdslParseError, filename: str, sources: SourceManager, offset: int
) -> ParseError:
    location = sources.location_of_offset(filename, offset + err.span.start)
    return ParseError(_clean_message(err.msg), location)


def _clean_message(message: str) -> str:
    """xDSL messages start with a capital and end with a period; MLIR's do neither."""
    message = message.strip().splitlines()[0] if message.strip() else ""
    if message.endswith("."):
        message = message[:-1]
    if message[:1].isupper() and not message[1:2].isupper():
        message = message[0].lower() + message[1:]
    return message


def _verifier_message(op: Operation, message: str) -> str:
    """`'<op>' op <message>` as MLIR's emitOpError prints it.

    schedir's verifiers carry upstream's own wording (capitals and periods included), so
    only the prefix is added, and only where the message does not have it already.
    """
    message = message.strip().splitlines()[0] if message.strip() else "failed to verify"
    prefix = f"'{op.name}' op "
    return message if message.startswith(prefix) else prefix + message


def _verify_error(op: Operation, message: str, err: VerifyException | None) -> VerifyError:
    if not isinstance(err, LocatedVerifyException):
        return VerifyError(_verifier_message(op, message), op_location(op))
    at = err.at if err.at is not None else op
    text = _verifier_message(at, err.message) if err.prefix else err.message
    return VerifyError(text, op_location(at), [op_note(o, m) for o, m in err.notes])


def verify_module(module: Operation) -> None:
    """Verify every op; raise one `VerifyError` per failing op (MLIR-style, at the op)."""
    errors = [_verify_error(op, msg, err) for op, msg, err in _verify_failures(module)]
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise MultipleErrors(errors)


def _verify_failures(
    root: Operation,
) -> Iterator[tuple[Operation, str, VerifyException | None]]:
    dominance = DominanceInfo()
    for op in root.walk():
        message, err = _verify_one(op)
        if message is None:
            # Upstream verifies dominance after the op's own verifier.
            failure = dominance_failure(dominance, op)
            if failure is not None:
                text, notes = failure
                err = LocatedVerifyException(text, prefix=False, notes=notes)
                message = text
        if message is not None:
            yield op, message, err
            # MLIR stops at the first failing op of a region; nested ops of a broken op
            # would only repeat the problem.
            return


def _verify_one(op: Operation) -> tuple[str | None, VerifyException | None]:
    """The verifier message of `op` alone (not its nested ops), or None if it verifies,
    with the exception that carried it."""
    block = op.parent
    region = block.parent if block is not None else None
    if block is not None and region is not None and block.last_op is op:
        parent_op = region.parent
        needs_terminator = parent_op is not None and not parent_op.has_trait(NoTerminator)
        if needs_terminator and not op.has_trait(IsTerminator):
            return "block must end with a terminator", None
    for nested in op.regions:
        for nested_block in nested.blocks:
            if nested_block.first_op is None and not op.has_trait(NoTerminator):
                return "empty block: expect at least a terminator", None
    try:
        op.verify_()
    except VerifyException as err:
        return str(err), err
    except (ValueError, IndexError, KeyError, TypeError, AssertionError) as err:
        return f"failed to verify: {err}", None
    return None, None


def _bytes_of(type_: Attribute) -> int | None:
    """Bytes of a statically shaped tensor or memref type (None for other types)."""
    if not isinstance(type_, TensorType | MemRefType):
        return None
    shape = type_.get_shape()
    if any(d < 0 for d in shape):
        return None
    element = type_.get_element_type()
    width = getattr(element, "bitwidth", None)
    if not isinstance(width, int):
        width = 64  # index and anything without a width: as wide as a pointer
    return math.prod(shape) * max(width // 8, 1)


def _size_text(size: int) -> str:
    for unit, scale in (("EiB", 2**60), ("PiB", 2**50), ("TiB", 2**40), ("GiB", 2**30)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size} bytes"


def check_buffer_sizes(module: Operation, limit: int) -> None:
    """Raise a `VerifyError` at the first value (argument or op result) whose static
    tensor or memref type needs more than `limit` bytes: running such a payload cannot
    allocate it, and a run must say so at the op instead of failing with a MemoryError
    (or a null pointer in the kernel)."""
    for op in module.walk():
        values = [(r, op) for r in op.results]
        values += [(a, op) for region in op.regions for b in region.blocks for a in b.args]
        for value, owner in values:
            size = _bytes_of(value.type)
            if size is not None and size > limit:
                what = "argument" if owner is not value.owner else "result"
                raise VerifyError(
                    f"'{owner.name}' op {what} of type {value.type} needs {_size_text(size)}, "
                    f"more than this process can allocate ({_size_text(limit)})",
                    op_location(owner),
                )


def location_from_attr(loc: Attribute) -> Location | None:
    """The file:line:col a location attribute points at, if any."""
    match loc:
        case FileLineColLoc():
            return Location(loc.filename.data, loc.line.data, loc.column.data)
        case NameLoc():
            return location_from_attr(loc.location)
        case CallSiteLoc():
            return location_from_attr(loc.callee)
        case FusedLoc():
            inners = loc.locations.data if isinstance(loc.locations, ArrayAttr) else ()
            for inner in inners:
                if (found := location_from_attr(inner)) is not None:
                    return found
            return None
        case _:
            return None


def op_name(op: Operation) -> str:
    """The name an op was written with: an opaque op of an unregistered dialect
    (`--allow-unregistered-dialect`) answers its own name, not xDSL's
    `builtin.unregistered`."""
    if isinstance(op, UnregisteredOp):
        return op.op_name.data
    return op.name


def op_location(op: Operation) -> Location | None:
    """Where `op` was written, or where its closest located ancestor was."""
    current: Operation | None = op
    while current is not None:
        if (loc := location_from_attr(current.location)) is not None:
            return loc
        current = current.parent_op()
    return None


def module_location(module: Operation) -> Location | None:
    """Where a module was written: its own location, or (an implicit module has none) that
    of its first located op."""
    if (loc := op_location(module)) is not None:
        return loc
    for op in module.walk():
        if (loc := location_from_attr(op.location)) is not None:
            return loc
    return None


def op_note(op: Operation, message: str = "see payload op") -> Note:
    """A note pointing at a (payload) op."""
    return Note(message, op_location(op))


def print_op(
    op: Operation,
    *,
    generic: bool = False,
    debuginfo: bool = False,
    mlir_style: bool = False,
    aliases: bool = True,
) -> str:
    """Print an op (usually a module) as MLIR text, ending with a newline.

    With `mlir_style`, the text is what MLIR's printer writes (`mlir_style.restyle`):
    affine expressions with MLIR's parentheses, the builtin module in its short form, and
    (unless `aliases` is off, as `--mlir-print-local-scope` asks) affine maps as `#map`
    aliases defined at the top, and ops of a region's default dialect without their prefix
    (`return` in a `func.func`).
    """
    stream = io.StringIO()
    printer_class = MlirPrinter if mlir_style else Printer
    printer = printer_class(stream=stream, print_generic_format=generic, print_debuginfo=debuginfo)
    printer.print_op(op)
    stream.write("\n")
    text = stream.getvalue()
    return restyle(text, aliases=aliases) if mlir_style else text


__all__ = [
    "LocatedParser",
    "LocatedVerifyException",
    "check_buffer_sizes",
    "location_from_attr",
    "op_location",
    "op_name",
    "op_note",
    "parse_module",
    "print_op",
    "verify_module",
]
