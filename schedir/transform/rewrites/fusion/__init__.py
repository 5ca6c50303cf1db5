"""Fusing producers into loops: into a containing op, and greedy tile-and-fuse."""
