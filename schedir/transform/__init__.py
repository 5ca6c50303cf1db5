"""Schedules applied to payloads.

- `interpreter`: the transform interpreter (run a named sequence: apply each op, keep the
  handles and the failures); it dispatches on the op's class;
- `interface`: what an apply function may ask of the interpreter (`Interpreter`), and how
  it is registered on its op class (`@applies`, `@populates`);
- `state`: the handles (what they map to, which are invalidated) and the failure kinds;
- `tracking`: handles that follow the payload ops a pattern rewrite replaces;
- `ops/`: the apply functions, mirroring `schedir.dialects.transform` module by module;
- `rewrites/`: the payload algorithms the apply functions and the lowering passes share;
- `builder`: schedules written from Python.
"""
