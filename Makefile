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
RUN := $(DENO) run --allow-all --unstable-worker-options --cached-only src/cli/main.ts
export ONNXRUNTIME_NODE_INSTALL_CUDA := skip

.PHONY: deps test check unit reproduce site preview sql bench bench-growth clean site-shots

$(LOCAL_DENO):
	@if [ -z "$(SYSTEM_DENO)" ]; then \
	  echo "deno not on PATH: installing npm deno@$(DENO_VERSION) into .tools/"; \
	  npm install --prefix .tools --no-save --no-audit --no-fund deno@$(DENO_VERSION) >/dev/null; \
	fi

node_modules/.execret-installed: deno.json deno.lock | $(if $(SYSTEM_DENO),,$(LOCAL_DENO))
	$(DENO) install --frozen
	@touch node_modules/.execret-installed

deps: node_modules/.execret-installed

check: deps
	$(DENO) fmt --check
	$(DENO) lint
	$(DENO) check --doc src/ loaders/ test/ scripts/ examples/ docs/data/ observablehq.config.ts

# Test files share one process under `deno test --parallel`, and with it the
# environment (EXECRET_OUT, EXECRET_MIRROR) that tests set: so each suite runs
# its files one after another, in processes side by side. Three processes on
# two cores, since many tests wait on timeouts, worker boots and browsers:
# the pipeline suite (the CPU-heavy runs of test/pipeline), the first half of
# the fast suite, and the second half followed by the site suite (test/site:
# mostly waiting on Chromium). Their child processes inherit their process's
# environment, which no test of those two suites sets. Site builds of one
# checkout wait for each other (scripts/build_lock.ts: they share Framework's
# loader cache under docs/.observablehq), so the two suites' builds may meet.
# The fast suite is everything else, every @example block included:
# test/docs/doc_examples_run_test.ts runs them all in one process (`deno test
# --doc` would start an isolate per snippet, a minute of CPU), and `check
# --doc` type-checks them. It runs as one module, test/fast_suite.ts, which
# imports every test file outside SLOW_TESTS (test/fast_suite_files.ts):
# `deno test` starts a fresh isolate per test module, ~0.3 CPU-s each, and the
# fast suite has ~125 of them.
# --no-check: `check` type-checks every test module (src/, loaders/, test/,
# scripts/ and examples/ hold them all), and Deno does not reuse that check
# for other roots, so `deno test` would type-check them all again in each
# process. `make unit` alone therefore does not type-check: `make test`
# (or `check`) does. A test file in a new folder needs that folder in `check`.
TEST := $(DENO) test --allow-all --unstable-worker-options --cached-only --no-check
SITE_TESTS := test/site
PIPELINE_TESTS := test/pipeline
SLOW_TESTS := $(SITE_TESTS) $(PIPELINE_TESTS)

unit: deps
	@mkdir -p out
	@EXECRET_TEST_SHARD=0/2 $(TEST) test/fast_suite.ts > out/test-fast-0.log 2>&1 & fast0=$$!; \
	{ EXECRET_TEST_SHARD=1/2 $(TEST) test/fast_suite.ts > out/test-fast-1.log 2>&1; fast1=$$?; \
	  $(TEST) $(SITE_TESTS) > out/test-site.log 2>&1; exit $$(( fast1 || $$? )); } & rest=$$!; \
	$(TEST) $(PIPELINE_TESTS) > out/test-pipeline.log 2>&1; pipeline=$$?; \
	wait $$fast0; fast0=$$?; wait $$rest; rest=$$?; \
	cat out/test-fast-0.log out/test-fast-1.log out/test-site.log out/test-pipeline.log; \
	exit $$(( fast0 || rest || pipeline ))

# Chromium first (scripts/ensure_chromium.sh installs it when it can): when it
# is missing and cannot be installed, one line says what to install and
# nothing else runs, instead of the site's browser test failing at the end.
test:
	@$(SHELL) scripts/ensure_chromium.sh
	@$(MAKE) --no-print-directory check unit

reproduce: deps
	$(RUN) reproduce --profile $(PROFILE) $(FLAGS)

# The site's data loaders make any missing table current through the same
# stages and cache as `reproduce`, so `make site` alone also works.
site: deps
	$(DENO) run --allow-all --cached-only scripts/build_site.ts

preview: deps
	$(DENO) run --allow-all --cached-only scripts/build_site.ts --preview

sql: deps
	@$(RUN) sql "$(Q)"

# Every benchmark the kit reports: mutate, oracle, embed, score, stats and
# growth at 1× (`execret bench all`), then the `deno bench` micro-benchmarks
# (*.bench.ts). bench-growth is the full 1×/3×/10× growth run (~1 h here).
bench: deps
	$(RUN) bench all
	$(DENO) bench --allow-all --cached-only

bench-growth: deps
	$(RUN) bench growth --scales 1,3,10

site-shots: deps
	$(DENO) run --allow-all --cached-only scripts/site_shots.ts

clean:
	rm -rf out docs/.observablehq/cache
