# The README's commands. Each creates .venv and installs what it needs on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test demo bench bench-outside lint clean soak

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest

soak: $(STAMP)
	$(PY) -m pytest tests/reliability -m soak -s -p no:cacheprovider

demo: $(STAMP)
	$(PY) -m aero_events.cli demo

bench: $(STAMP)
	$(PY) -m benchmarks

# The outside comparison (benchmarks/bench_outside.py) with python-chess and OpenSpiel installed: the "outside"
# extra goes into .venv itself, since it only adds packages (chess, open_spiel, absl-py, ml_collections, scipy)
# and replaces none of the project's (pip install --dry-run). make test and make demo never install it.
bench-outside: $(STAMP)
	$(PY) -m pip install --quiet -e ".[outside]"
	$(PY) -m benchmarks outside

lint: $(STAMP)
	$(PY) -m ruff check aero_events tests benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
