"""Benchmarks run by `make bench`: each prints its figure beside a limit measured in the same run."""
