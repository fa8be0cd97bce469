# The two commands: `make serve` and `make test` (plus `make bench`).
# Each creates .venv when it is missing and installs what it needs into it.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
REPORTS ?= test-output
SERVE_ARGS ?=

.PHONY: serve test bench chromium clean

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed: set PYTHON=/path/to/python3.11")'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --no-compile -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --no-compile -e '.[test]'
	@touch $@ $(VENV)/.installed

serve: $(VENV)/.installed
	$(VENV)/bin/companion serve $(SERVE_ARGS)

chromium:
	@sh scripts/ensure-chromium

test: $(VENV)/.installed-test chromium
	@mkdir -p $(REPORTS)
	$(PY) -m pytest --nbmake tests notebooks --output=$(REPORTS) --junitxml=$(REPORTS)/junit.xml; \
	status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests: that is a failure" >&2; exit 1; fi; \
	exit $$status

bench: $(VENV)/.installed
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) $(REPORTS) .pytest_cache .hypothesis
