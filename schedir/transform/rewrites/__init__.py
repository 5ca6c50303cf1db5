"""Payload algorithms as plain functions: no handles, no interpreter.

Each takes a rewriter and payload ops and returns a frozen result record, so transform
ops, passes, tests and the autotuner can all call it.
"""
