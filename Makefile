# The ExecRetrieval Kit. `make reproduce` runs the whole pipeline, `make test`
# every check. Deno comes from PATH, or else from the pinned npm package `deno`
# installed into .tools/ (no global install needed).
DENO_VERSION := 2.9.6
SYSTEM_DENO := $(shell command -v deno 2>/dev/null)
LOCAL_DENO := .tools/node_modules/.bin/deno
DENO := $(if $(SYSTEM_DENO),$(SYSTEM_DENO),$(LOCAL_DENO))
PROFILE ?= default
# Extra reproduce flags, e.g. FLAGS=--skip-unavailable with PROFILE=paper.
FLAGS ?=
# glibc hands each freed large buffer back to the kernel and faults every new
# one in afresh; on the 2-core VMs the kit is measured on, a page fault is dear
# and that churn was a third of a release run's system time. Keeping freed
# memory for reuse took `make reproduce PROFILE=release` at real size from
# 3 min 23 s to 2 min 41 s (peak RSS 2.87 -> 3.24 GB). `MALLOC_ENV=` turns it off.
MALLOC_ENV ?= MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=17179869184 MALLOC_TOP_PAD_=268435456
RUN := env $(MALLOC_ENV) $(DENO) run --allow-all --unstable-worker-options --cached-only src/cli/main.ts
export ONNXRUNTIME_NODE_INSTALL_CUDA := skip

.PHONY: deps test check unit reproduce site preview sql bench bench-growth clean site-shots install check-run

$(LOCAL_DENO):
	@if [ -z "$(SYSTEM_DENO)" ]; then \
	  echo "deno not on PATH: installing npm deno@$(DENO_VERSION) into .tools/"; \
	  npm install --prefix .tools --no-save --no-audit --no-fund deno@$(DENO_VERSION) >/dev/null; \
	fi

node_modules/.execret-installed: deno.json deno.lock | $(if $(SYSTEM_DENO),,$(LOCAL_DENO))
	$(DENO) install --frozen
	@touch node_modules/.execret-installed

deps: node_modules/.execret-installed

# The `execret` command on PATH: a launcher in $(PREFIX)/bin for this checkout.
PREFIX ?= $(HOME)/.local
install: deps
	@$(SHELL) scripts/install_execret.sh "$(DENO)" "$(PREFIX)"

check: deps
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
# The jobs run with --no-check: `check` type-checks every test module (src/,
# test/, scripts/ and examples/ hold them all), and Deno does not
# reuse that check for other roots, so each job would type-check them again.
# `make unit` alone therefore does not type-check: `make test` (or `check`)
# does. A test file in a new folder needs that folder in `check`.
unit: deps
	@$(DENO) run --allow-all --cached-only test/run_unit.ts

# Chromium first (scripts/ensure_chromium.sh installs it when it can): when it
# is missing and cannot be installed, one line says what to install and
# nothing else runs, instead of the site's browser test failing at the end.
# The same for Slurm and MUNGE, which the cluster tests run (scripts/ensure_slurm.sh).
test:
	@$(SHELL) scripts/ensure_chromium.sh
	@$(SHELL) scripts/ensure_slurm.sh
	@$(MAKE) --no-print-directory check unit

reproduce: deps
	$(RUN) reproduce --profile $(PROFILE) $(FLAGS)

# The site's data loaders make any missing table current through the same
# stages and cache as `reproduce`, so `make site` alone also works.
# RUNS="release=out-release regenerated=out" builds one site of several runs
# (src/site/site_runs.ts), each run's pages under /<name>/.
RUNS ?=
site: deps
	$(DENO) run --allow-all --cached-only src/site/build_site.ts $(foreach r,$(RUNS),--run $(r))

# `execret check` on the run in EXECRET_OUT (default out/).
check-run: deps
	$(RUN) check

preview: deps
	$(DENO) run --allow-all --cached-only src/site/build_site.ts --preview

sql: deps
	@$(RUN) sql "$(Q)"

# Every benchmark the kit reports: mutate, oracle, embed, score, stats and
# growth at 1× (`execret bench all`), then the `deno bench` micro-benchmarks
# (*.bench.ts). bench-growth is the full 1×/3×/10× growth run (~11 min here).
bench: deps
	$(RUN) bench all
	$(DENO) bench --allow-all --cached-only

bench-growth: deps
	$(RUN) bench growth --scales 1,3,10

site-shots: deps
	$(DENO) run --allow-all --cached-only scripts/site_shots.ts

clean:
	rm -rf out docs/.observablehq/cache
