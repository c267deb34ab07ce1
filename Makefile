# The course's commands. Each one sets up what it needs first (a virtualenv in .venv).
#   make serve   build the browser site (JupyterLite) and serve it on 127.0.0.1
#   make lab     JupyterLab on the lessons, in this machine's Python
#   make test    every test: package, nbval on every lesson, the site in headless Chromium,
#                lessons 3 and 9 on a real local model (llama-cpp-python, built once and cached)
#   make bench   the benchmarks (figures go in the README)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000

.PHONY: setup lab serve site realmodel test bench clean

$(BIN)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.txt
	$(BIN)/python -m pip install -q -e .
	touch $@

setup: $(BIN)/.installed

# Jupyter refuses to run as root, which is the usual user in a container or a cloud workspace.
AS_ROOT := $(filter 0,$(shell id -u 2>/dev/null))

lab: setup
	$(if $(AS_ROOT),@echo "Warning: running as root (a container?): Jupyter starts with --allow-root.")
	$(BIN)/jupyter lab --notebook-dir=lessons $(if $(AS_ROOT),--allow-root)

site: setup
	$(BIN)/python lite/build.py

serve: setup
	$(BIN)/python lite/serve.py --port $(PORT)

# The real-model tier's server: built on the first run (minutes), then taken from ~/.cache/agentloop.
realmodel: setup
	$(BIN)/python tests/realmodel/prepare.py >/dev/null

test: setup site realmodel
	env -u LLM_BASE_URL -u LLM_API_KEY -u LLM_MODEL $(BIN)/python -m pytest

bench: setup site
	for script in bench/*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) _output .cache
