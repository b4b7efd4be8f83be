import { type Command, parseFlags, positiveInt, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import type { GateCount } from "../../oracle/gates.ts";
import { MAX_DISTRACTORS, runOracleStage } from "../../oracle/oracle_stage.ts";
import type { Runtime } from "../../oracle/pool.ts";
import { parseShard, type Shard } from "../../common/shard.ts";

const GATES = [
  "tasks_in",
  "canonical_fail",
  "canonical_flaky",
  "canonical_pass",
  "candidates_in",
  "candidates_of_kept_tasks",
  "equivalent",
  "verified",
  "verified_timeout_only",
  "stopped_at_timeout",
  "not_needed",
  "distractors_kept",
  "distractors_timeout_only",
];

/** The validation counts as a small text table: gates by source, then mixes. */
export function formatValidation(rows: readonly GateCount[]): string {
  const sources = [...new Set(rows.map((r) => r.source))].filter((s) => s !== "all").sort();
  sources.push("all");
  const get = (gate: string, source: string) =>
    rows.find((r) => r.gate === gate && r.source === source)?.count ?? 0;
  const gates = [
    ...GATES,
    ...Array.from(
      { length: MAX_DISTRACTORS + 1 },
      (_, i) => `tasks_with_distractors:${MAX_DISTRACTORS - i}`,
    ),
    ...[...new Set(rows.map((r) => r.gate).filter((g) => g.startsWith("bug_type:")))].sort(),
  ];
  const width = Math.max(...gates.map((g) => g.length));
  const cols = sources.map((s) => Math.max(s.length, 7));
  const lines = [
    "gate".padEnd(width) + sources.map((s, i) => "  " + s.padStart(cols[i])).join(""),
  ];
  for (const g of gates) {
    lines.push(
      g.padEnd(width) + sources.map((s, i) => "  " + String(get(g, s)).padStart(cols[i])).join(""),
    );
  }
  return lines.join("\n");
}

/** `execret oracle`: execute every snippet's tests; build queries, corpus, validation. */
export const oracleCommand: Command = {
  name: "oracle",
  help:
    `usage: execret oracle [--runtime pyodide|native] [--workers N] [--timeout-ms N] [--shard i/n] [--quiet] [--json]

Run every canonical (twice: a canonical whose outcomes differ is flaky) and
every candidate of out/tables/mutants.arrow against its task's tests in a
sandbox, then write executions, queries, corpus and validation tables plus the
oracle's rejects. A canonical failing a test rejects its task; a candidate
passing every test is an equivalent mutant and is dropped; up to ${MAX_DISTRACTORS} verified
candidates per task are kept by the mutation engine's order. A candidate's
suite stops at its first TIMEOUT (it already fails): its later tests are
NOT_RUN. Results are cached under out/cache/executions/, so a rerun executes
nothing already known.

options:
  --runtime R      pyodide (default: Pyodide in locked-down Deno workers) or
                   native (python3 workers with rlimits, timers, no network)
  --workers N      worker count (default: the machine's cores); with Pyodide,
                   a worker stuck past a quarter of the timeout on one test
                   (most likely a loop) lets a spare worker take its queue,
                   up to N spares, since a timeout is wall-clock time: when
                   workers start faster than that test has left, or when a
                   batch of 128 suites is queued for every worker and spare
  --timeout-ms N   per-test timeout (default 1000)
  --shard i/n      run only the tasks whose id hashes (sha256, first 4 bytes,
                   mod n) to shard i, filling the execution cache and writing
                   no table; merge the shards' caches with execret merge-cache,
                   then an unsharded run executes nothing and writes the tables
  --quiet          no progress line
  --json           print the result as JSON`,
  async run(args) {
    const { values } = parseFlags(args, {
      runtime: { type: "string" },
      workers: { type: "string" },
      "timeout-ms": { type: "string" },
      quiet: { type: "boolean" },
      shard: { type: "string" },
    });
    const runtime = (values.runtime ?? "pyodide") as Runtime;
    if (runtime !== "pyodide" && runtime !== "native") {
      throw new UserError(`--runtime must be pyodide or native, got "${values.runtime}"`, 2);
    }
    const workers = positiveInt("workers", values.workers, navigator.hardwareConcurrency ?? 1);
    const timeoutMs = positiveInt("timeout-ms", values["timeout-ms"], 1000);
    let shard: Shard | undefined;
    try {
      shard = values.shard === undefined ? undefined : parseShard(values.shard);
    } catch (e) {
      throw new UserError((e as Error).message, 2);
    }
    let result;
    try {
      result = await runOracleStage({
        runtime,
        workers,
        timeoutMs,
        quiet: values.quiet ?? values.json,
        shard,
      });
    } catch (e) {
      if (
        e instanceof Error && /table not found|duplicate task_id|has no canonical/.test(e.message)
      ) {
        throw new UserError(e.message);
      }
      throw e;
    }
    if (values.json) {
      printJson(result);
      return 0;
    }
    const r = result.run;
    if (result.shard) {
      console.log(
        `oracle shard ${result.shard.index}/${result.shard.count}: ${result.shard.tasks} tasks, ` +
          `${r.executed} suites executed, ${r.cached} from cache, ${r.seconds.toFixed(1)} s ` +
          `(${result.runtime}); no tables written`,
      );
      return 0;
    }
    console.log(
      `oracle: ${r.executed} suites executed, ${r.cached} from cache, ${r.seconds.toFixed(1)} s ` +
        `(${result.runtime}, ${result.timeoutMs} ms per test); ${result.rejectSummary}`,
    );
    console.log(formatValidation(result.validation));
    return 0;
  },
};
