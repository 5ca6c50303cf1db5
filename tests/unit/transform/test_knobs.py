"""Reading and resolving the knobs of a schedule (`schedir.transform.knobs`), and every
transform parameter a knob's value can feed (a param where the op takes sizes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.diagnostics import InputError
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module, print_op
from schedir.options import CompileOptions
from schedir.pipeline import PAYLOAD as PAYLOAD_STAGE
from schedir.pipeline import SCHEDULED, Compilation, Schedule, Source, run_stages
from schedir.transform.knobs import clear, read_knobs, select, selections

ROOT = Path(__file__).parents[3]
SCHEDULES = [
    ROOT / "schedules" / f"{n}.mlir"
    for n in ("matmul_cpu", "matmul_smem_cuda", "matmul_cuda", "elementwise_cuda")
]


@pytest.mark.parametrize("path", SCHEDULES, ids=lambda p: p.stem)
def test_shipped_schedules_declare_knobs_selected_as_written(path: Path) -> None:
    module = parse_module(path.read_text(), str(path))
    knobs = read_knobs(module)
    assert knobs and all(k.selected is not None and k.selected in k.options for k in knobs)


@settings(max_examples=25)
@given(st.data())
def test_select_print_parse_reads_back_the_point(data: st.DataObject) -> None:
    path = SCHEDULES[0]
    module = parse_module(path.read_text(), str(path))
    point = {k.name: data.draw(st.sampled_from(k.options)) for k in read_knobs(module)}
    select(module, point)
    again = parse_module(print_op(module), "<printed>")
    assert selections(again) == point
    clear(again)
    assert all(k.selected is None for k in read_knobs(again))


def _knob_schedule(body: str) -> str:
    return f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    {body}
    transform.yield
  }}
}}
"""


KNOBS = """%a = transform.tune.knob<"a"> = 4 from options = [2, 4, 8] -> !transform.param<i64>
    %b = transform.tune.knob<"b"> = "x" from options = ["x", "y"] -> !transform.any_param
    %c = transform.tune.knob<"a"> = 4 from options = [2, 4, 8] -> !transform.param<i64>"""


def test_select_errors_name_the_knob_and_its_options() -> None:
    module = parse_module(_knob_schedule(KNOBS), "<s>")
    assert [k.name for k in read_knobs(module)] == ["a", "b"]  # one choice per name
    with pytest.raises(InputError, match="no knob named 'z'"):
        select(module, {"z": 1})
    with pytest.raises(InputError, match='value 3 is not an option of knob "a"') as err:
        select(module, {"a": 3})
    assert "its options: 2, 4, 8" in err.value.render()
    select(module, {"a": 8, "b": "y"})
    assert selections(module) == {"a": 8, "b": "y"}


def test_knobs_of_one_name_must_agree() -> None:
    bad = KNOBS.replace(
        '%c = transform.tune.knob<"a"> = 4 from options = [2, 4, 8]',
        '%c = transform.tune.knob<"a"> = 4 from options = [4, 16]',
    )
    with pytest.raises(InputError, match='choice "a" is declared twice'):
        read_knobs(parse_module(_knob_schedule(bad), "<s>"))


def test_alternatives_are_a_choice_of_region() -> None:
    body = """%r = transform.tune.alternatives<"order"> selected_region = 1 -> !transform.any_param {
      %x = transform.param.constant 1 : i64 -> !transform.any_param
      transform.yield %x : !transform.any_param
    }, {
      %y = transform.param.constant 2 : i64 -> !transform.any_param
      transform.yield %y : !transform.any_param
    }"""
    module = parse_module(_knob_schedule(body), "<s>")
    (choice,) = read_knobs(module)
    assert choice.is_alternatives and choice.options == (0, 1) and choice.selected == 1
    select(module, {"order": 0})
    assert selections(parse_module(print_op(module), "<p>")) == {"order": 0}


# --- which transform parameters take a knob's value --------------------------------------

PAYLOAD = """
func.func @f(%A: tensor<16x8xf32>, %B: tensor<8x12xf32>, %C: tensor<16x12xf32>) -> tensor<16x12xf32> {
  %r = linalg.matmul ins(%A, %B : tensor<16x8xf32>, tensor<8x12xf32>) outs(%C : tensor<16x12xf32>) -> tensor<16x12xf32>
  return %r : tensor<16x12xf32>
}
"""
P = "!transform.param<i64>"
POSITIONS = {
    "tile_using_for tile_sizes": (
        "transform.structured.tile_using_for %mm tile_sizes [{v}, 4, 0] : (!transform.any_op{t}) -> (!transform.any_op, !transform.any_op, !transform.any_op)"
    ),
    "tile_using_forall tile_sizes": (
        "transform.structured.tile_using_forall %mm tile_sizes [{v}, 4] : (!transform.any_op{t}) -> (!transform.any_op, !transform.any_op)"
    ),
    "tile_using_forall num_threads": (
        "transform.structured.tile_using_forall %mm num_threads [{v}, 3] : (!transform.any_op{t}) -> (!transform.any_op, !transform.any_op)"
    ),
    "vectorize vector_sizes": (
        "transform.structured.vectorize %mm vector_sizes [{v}, 12, 8] : !transform.any_op{t}"
    ),
}


def _scheduled(schedule: str) -> str:
    c = Compilation(
        get_context(),
        CompileOptions(),
        payload=Source(PAYLOAD, "<p>"),
        schedule=Schedule(Source(schedule, "<s>")),
    )
    run_stages(c, (PAYLOAD_STAGE, SCHEDULED))
    return print_op(c.ir)


@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_a_knob_value_feeds_the_param(position: str) -> None:
    match = '%mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op'
    op = POSITIONS[position]
    literal = _knob_schedule(f"{match}\n    {op.format(v=16, t='')}")
    knob = f'%k = transform.tune.knob<"k"> = 16 from options = [4, 16] -> {P}'
    with_knob = _knob_schedule(f"{match}\n    {knob}\n    {op.format(v='%k', t=', ' + P)}")
    assert _scheduled(with_knob) == _scheduled(literal)
