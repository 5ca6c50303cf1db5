"""The fuzz generators as hypothesis strategies, for `@given` tests.

The generators are functions of a `random.Random`; hypothesis draws that generator
(`st.randoms`, not truly random), so a failing example is replayed from hypothesis' own
record and shrinks with it.
"""

from __future__ import annotations

from hypothesis import strategies as st

from schedir.testing.fuzz.campaign import Case, gen_case, gen_mutant
from schedir.testing.fuzz.payload import Payload, gen_payload


def payloads() -> st.SearchStrategy[Payload]:
    """Random payloads (`gen_payload`)."""
    return st.randoms(use_true_random=False).map(gen_payload)


def cases() -> st.SearchStrategy[Case]:
    """Random payloads with random schedules and inputs (`gen_case`)."""
    return st.randoms(use_true_random=False).map(gen_case)


def mutants() -> st.SearchStrategy[Case]:
    """Mutated cases (`gen_mutant`)."""
    return st.randoms(use_true_random=False).map(gen_mutant)
