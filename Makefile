# Two commands: `make run` (set up, index the shipped corpus if needed, start the product)
# and `make test` (set up, run the whole suite). Everything else is optional.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False
export GRADIO_ANALYTICS_ENABLED := False
# llama.cpp built for this CPU (-march=native) uses AMX tiles where the CPU lists them, and a VM
# that does not grant AMX state segfaults on the first multi-token decode: build for AVX2 instead.
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON

.PHONY: run test setup lint bench clean browser

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# torch first, pinned: 2.13.0 is a local CPU build; any other version pulls a multi-GB CUDA build.
	$(BIN)/python -m pip install --quiet "torch==2.13.0"
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/rag ingest
	$(BIN)/rag serve

# CI=true (unless set otherwise) makes the suite's optional-dependency guards fail instead
# of skip: `make test` installs Chromium and the ONNX extra, so a missing one is a broken setup.
test: $(STAMP) browser
	CI=$${CI:-true} $(BIN)/python -m pytest -q

# The browser test drives Debian's Chromium (Playwright cannot download browsers here).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "note: install Debian's chromium (sudo apt-get install chromium) to run the browser test"; fi; }

lint: $(STAMP)
	$(BIN)/ruff check rag ui tests
	$(BIN)/ruff format --check rag ui tests
	$(BIN)/mypy rag ui

bench: $(STAMP)
	$(BIN)/rag bench

clean:
	rm -rf $(VENV) .rag .pytest_cache
