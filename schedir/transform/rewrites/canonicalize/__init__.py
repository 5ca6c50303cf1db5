"""Canonicalization: the greedy pattern driver and each dialect's folders and patterns."""
