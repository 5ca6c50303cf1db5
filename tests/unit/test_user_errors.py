"""Errors a user causes are plain diagnostics (exit 1), never "internal compiler error".

Dimensions past int64 are parse errors at the literal (as upstream's "invalid dimension"),
sizes no process can allocate are rejected before running, running out of memory is
reported as such, and scalar inputs of the wrong kind name the argument.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedir.cli import opt_main, run_main
from schedir.diagnostics import SourceManager

INT64_MAX = 2**63 - 1


def _copy_payload(dims: str, kind: str = "tensor") -> str:
    t = f"{kind}<{dims}xf32>"
    return f"func.func @f(%a: {t}) -> {t} {{\n  return %a : {t}\n}}\n"


def _plain_error(err: str) -> None:
    assert "error: " in err and "internal compiler error" not in err, err
    assert "Traceback" not in err, err


# capsys is read (and so reset) within each example.
@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    size=st.integers(min_value=INT64_MAX + 1, max_value=2**200),
    rank_before=st.integers(0, 2),
    kind=st.sampled_from(["tensor", "memref", "vector"]),
)
def test_dimension_past_int64_is_invalid_at_the_literal(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    size: int,
    rank_before: int,
    kind: str,
) -> None:
    dims = "x".join(["3"] * rank_before + [str(size)])
    path = tmp_path_factory.mktemp("dim") / "f.mlir"
    path.write_text(_copy_payload(dims, kind))
    assert opt_main([str(path)]) == 1
    err = capsys.readouterr().err
    _plain_error(err)
    col = len(f"func.func @f(%a: {kind}<") + len("3x") * rank_before + 1
    assert f"f.mlir:1:{col}: error: invalid dimension" in err, err


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    dims=st.lists(st.integers(2**20, INT64_MAX), min_size=2, max_size=3),
)
def test_unallocatable_sizes_are_rejected_before_running(
    tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str], dims: list[int]
) -> None:
    path = tmp_path_factory.mktemp("huge") / "f.mlir"
    path.write_text(_copy_payload("x".join(map(str, dims))))
    assert run_main([str(path)]) == 1
    err = capsys.readouterr().err
    _plain_error(err)
    assert "more than this process can allocate" in err, err


def test_int64_max_dimension_parses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(_copy_payload(f"{INT64_MAX}x2"))
    assert opt_main([str(path)]) == 0
    assert f"tensor<{INT64_MAX}x2xf32>" in capsys.readouterr().out


def test_running_out_of_memory_is_a_plain_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from schedir import cli

    def exhausted(argv: list[str] | None, sources: SourceManager) -> int:
        raise MemoryError("Unable to allocate 45.3 GiB")

    monkeypatch.setattr(cli, "_run", exhausted)
    assert cli.run_main([]) == 1
    err = capsys.readouterr().err
    _plain_error(err)
    assert err.startswith("error: out of memory: Unable to allocate 45.3 GiB"), err


SCALAR = """\
func.func @f(%a: tensor<5xi32>, %s: i32) -> tensor<5xi32> {
  %e = tensor.empty() : tensor<5xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<5xi32>) outs(%e : tensor<5xi32>) {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %s : i32
    linalg.yield %y : i32
  } -> tensor<5xi32>
  return %r : tensor<5xi32>
}
"""


@pytest.mark.parametrize(
    ("scalar", "words"),
    [
        (np.float32(2.5), "must be an integer"),
        (np.float64(3.0), "must be an integer"),
        (np.float64("nan"), "must be an integer"),
        (np.array(2**40), "out of range for i32"),
        (np.ones(2, np.int32), "must be a scalar"),
        (np.complex64(1), "must be a number"),
    ],
)
def test_wrong_scalar_inputs_name_the_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scalar: object, words: str
) -> None:
    payload = tmp_path / "f.mlir"
    payload.write_text(SCALAR)
    np.save(tmp_path / "a.npy", np.arange(1, 6, dtype=np.int32))
    np.save(tmp_path / "s.npy", np.asarray(scalar))
    inputs = f"{tmp_path / 'a.npy'},{tmp_path / 's.npy'}"
    assert run_main([str(payload), "--inputs", inputs]) == 1
    err = capsys.readouterr().err
    _plain_error(err)
    assert "argument 1 (%s: i32)" in err and words in err, err


def test_a_payload_without_functions_is_located_at_the_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A mutant that deletes the function: the error names file:1:1, as MLIR locates an
    # implicit module (it had no location at all before).
    path = tmp_path / "empty.mlir"
    for text in ("", "// only a comment\n", "module {\n}\n"):
        path.write_text(text)
        assert run_main([str(path)]) == 1
        err = capsys.readouterr().err
        assert f"{path}:1:1: error: the payload has no public function to run" in err, err
