# The ExecRetrieval Kit. `make` alone lists the targets; `make reproduce` runs
# the whole pipeline, `make test` every check. Deno comes from PATH, or else
# from the pinned npm package `deno` installed into .tools/ (no global install
# needed). Every target that runs the CLI starts it through scripts/execret,
# the one launcher (the installed `execret` and `deno task execret` use it too).
DENO_VERSION := 2.9.6
SYSTEM_DENO := $(shell command -v deno 2>/dev/null)
LOCAL_DENO := .tools/node_modules/.bin/deno
DENO := $(if $(SYSTEM_DENO),$(SYSTEM_DENO),$(LOCAL_DENO))
PROFILE ?= default
# Extra reproduce flags, e.g. FLAGS=--skip-unavailable with PROFILE=paper.
FLAGS ?=
RUN := EXECRET_DENO=$(DENO) $(SHELL) scripts/execret
export ONNXRUNTIME_NODE_INSTALL_CUDA := skip

.DEFAULT_GOAL := help
.PHONY: help deps install lint check test unit reproduce site preview sql bench bench-growth site-shots clean

# A target's line here is the text after its `##`.
help: ## these targets, one line each (the default goal)
	@echo "make <target>   (PROFILE=, FLAGS=, Q=, RUNS= as each says)"
	@awk -F ':.*## ' '/^[a-z-]+:.*## / { printf "  %-13s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

$(LOCAL_DENO):
	@if [ -z "$(SYSTEM_DENO)" ]; then \
	  echo "deno not on PATH: installing npm deno@$(DENO_VERSION) into .tools/"; \
	  npm install --prefix .tools --no-save --no-audit --no-fund deno@$(DENO_VERSION) >/dev/null; \
	fi

# node_modules is made here, once: deno.json says "manual", so no `deno run`
# takes a lock on it at start to sync it. With "auto" every one did, and a
# command started while another Deno process of the kit held that lock
# waited and said "Blocking waiting for file lock on node_modules directory"
# on stderr (seen in `execret sql` beside make test's jobs).
node_modules/.execret-installed: deno.json deno.lock | $(if $(SYSTEM_DENO),,$(LOCAL_DENO))
	$(DENO) install --frozen
	@touch node_modules/.execret-installed

deps: node_modules/.execret-installed ## install Deno (when PATH has none) and the npm packages

# The `execret` command on PATH: a launcher in $(PREFIX)/bin for this checkout.
PREFIX ?= $(HOME)/.local
install: deps ## put the `execret` command on PATH, in PREFIX/bin (default ~/.local/bin)
	@$(SHELL) scripts/install_execret.sh "$(DENO)" "$(PREFIX)"

lint: deps ## format, lint and type checks of the code (no test runs)
	$(DENO) fmt --check
	$(DENO) lint
	$(DENO) check --doc src/ test/ scripts/ examples/ docs/data/ docs/sql.md.ts observablehq.config.ts

# Every test, as jobs run three at a time, each a `deno test` process of its
# own with its log in out/test-<job>.log: the fast suite in shards and the
# longest files alone, longest first (test/run_unit.ts says why and which).
# The fast suite is every test file no job names, every @example block
# included: test/docs/doc_examples_run_test.ts runs them all in one process
# (`deno test --doc` would start an isolate per snippet, a minute of CPU), and
# `check --doc` type-checks them. It runs as one module, test/fast_suite.ts
# (test/fast_suite_files.ts): `deno test` starts a fresh isolate per test
# module, ~0.3 CPU-s each, and the fast suite has ~120 of them.
# The jobs run with --no-check: `lint` type-checks every test module (src/,
# test/, scripts/ and examples/ hold them all), and Deno does not
# reuse that check for other roots, so each job would type-check them again.
# `make unit` alone therefore does not type-check: `make test` (or `lint`)
# does. A test file in a new folder needs that folder in `lint`.
unit: deps ## every test, as jobs three at a time (no lint; `make test` does both)
	@$(DENO) run --allow-all --cached-only test/run_unit.ts

# Chromium first (scripts/ensure_chromium.sh installs it when it can): when it
# is missing and cannot be installed, one line says what to install and
# nothing else runs, instead of the site's browser test failing at the end.
# The same for Slurm and MUNGE, which the cluster tests run (scripts/ensure_slurm.sh).
test: ## lint, then every test (installs Chromium and Slurm for the browser and cluster tests when it can)
	@$(SHELL) scripts/ensure_chromium.sh
	@$(SHELL) scripts/ensure_slurm.sh
	@$(MAKE) --no-print-directory lint unit

reproduce: deps ## the whole pipeline (PROFILE=default) and its site, into out/ (or EXECRET_OUT)
	$(RUN) reproduce --profile $(PROFILE) $(FLAGS)

# The site's data loaders make any missing table current through the same
# stages and cache as `reproduce`, so `make site` alone also works.
# RUNS="release=out-release regenerated=out" builds one site of several runs
# (src/site/site_runs.ts), each run's pages under /<name>/.
RUNS ?=
site: deps ## the report site of the run in out/ (RUNS="a=out-a b=out-b": one site of several runs)
	$(DENO) run --allow-all --cached-only src/site/build_site.ts $(foreach r,$(RUNS),--run $(r))

check: deps ## `execret check`: verify the run in out/ (or EXECRET_OUT), file by file
	$(RUN) check

preview: deps ## serve the site live while you edit its pages
	$(DENO) run --allow-all --cached-only src/site/build_site.ts --preview

sql: deps ## one SQL query over the run's tables: make sql Q="SELECT …"
	@$(RUN) sql "$(Q)"

# Every benchmark the kit reports: mutate, oracle, embed, score, stats and
# growth at 1× (`execret bench all`), then the `deno bench` micro-benchmarks
# (*.bench.ts). bench-growth is the full 1×/3×/10× growth run (~11 min here).
bench: deps ## every benchmark the kit reports, then the micro-benchmarks
	$(RUN) bench all
	$(DENO) bench --allow-all --cached-only

bench-growth: deps ## the pipeline at 1x, 3x and 10x the default tasks (~11 min)
	$(RUN) bench growth --scales 1,3,10

site-shots: deps ## screenshots of the site's pages
	$(DENO) run --allow-all --cached-only scripts/site_shots.ts

clean: ## remove out/ and Framework's cache
	rm -rf out docs/.observablehq/cache
