# The two commands: `make serve` and `make test` (plus `make bench` and `make fuzz`).
# Each creates .venv when it is missing and installs what it needs into it.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
REPORTS ?= test-output
SERVE_ARGS ?=

.PHONY: serve test fuzz bench chromium clean

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

# The tests that drive no browser run TEST_JOBS at a time (the machine's cores by default); then the browser
# tests run one at a time, each with a server and Chromium of its own. Both parts always run; either one
# failing, or collecting no test, fails `make test`. The browser tests' files go to a folder of their own, which
# pytest-playwright empties when it starts.
TEST_JOBS ?= $(shell nproc)
test: $(VENV)/.installed-test chromium
	@mkdir -p $(REPORTS)
	HYPOTHESIS_PROFILE=ci $(PY) -m pytest --nbmake tests notebooks --ignore=tests/browser -n $(TEST_JOBS) \
		--junitxml=$(REPORTS)/junit.xml; \
	first=$$?; \
	HYPOTHESIS_PROFILE=ci $(PY) -m pytest tests/browser --output=$(REPORTS)/browser \
		--junitxml=$(REPORTS)/junit-browser.xml; \
	second=$$?; \
	for status in $$first $$second; do \
		if [ $$status -eq 5 ]; then echo "pytest collected no tests: that is a failure" >&2; exit 1; fi; \
		if [ $$status -ne 0 ]; then exit $$status; fi; \
	done

# The property tests (hypothesis) with a random seed and ten times the examples and whole games; the seed is
# printed first, and `make fuzz SEED=n` runs that very search again. The tests run FUZZ_JOBS at a time (one
# process each, the machine's cores by default); each prints its own result, and any failure fails the run.
FUZZ_JOBS ?= $(shell nproc)
fuzz: $(VENV)/.installed-test
	@seed=$${SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}; \
	echo "make fuzz: hypothesis seed $$seed (run it again with: make fuzz SEED=$$seed)"; \
	$(PY) -m pytest tests -m "hypothesis and not browser" --collect-only -q -p no:cacheprovider | grep '::' | \
	xargs -d '\n' -P $(FUZZ_JOBS) -I{} env HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest "{}" -q -p no:cacheprovider \
		--hypothesis-seed=$$seed -m "hypothesis and not browser" --no-header -rfE; \
	status=$$?; echo "make fuzz: hypothesis seed $$seed, exit $$status"; exit $$status

bench: $(VENV)/.installed-test chromium
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) $(REPORTS) .pytest_cache .hypothesis
