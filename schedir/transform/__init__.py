"""Schedules applied to payloads: the transform interpreter, the apply functions of the
transform ops (`ops/`), and the payload rewrites they and the lowering passes share
(`rewrites/`)."""
