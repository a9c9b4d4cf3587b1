# Every target creates the virtual environment first when it is missing, so on a fresh
# machine `make demo` and `make test` are the only set-up commands.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SHARED ?= ../shared

.PHONY: demo test check eval bench bench-fetch fuzz goldens clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m spectrack.demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

check: $(STAMP)
	$(BIN)/ruff check spectrack tests bench
	$(BIN)/ruff format --check spectrack tests bench
	$(BIN)/mypy spectrack

eval: $(STAMP)
	$(BIN)/python -m bench.eval --shared $(SHARED) --out reports/eval

bench: $(STAMP)
	$(BIN)/python -m bench.run --shared $(SHARED)

bench-fetch: $(STAMP)
	$(BIN)/python -m bench.fetch

fuzz: $(STAMP)
	$(BIN)/python -m bench.fuzz --seconds 180 --out reports/fuzz.jsonl

goldens: $(STAMP)
	$(BIN)/python -m tests.goldens

clean:
	rm -rf $(VENV) build dist *.egg-info reports test-artifacts
