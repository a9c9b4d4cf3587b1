"""Benchmarks: each prints its figures and ratios against a baseline run in the same process."""
