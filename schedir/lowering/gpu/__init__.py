"""Analyses the GPU lowering passes share: region captures, kernel walks, written arguments, index bounds."""
