import { type Command, parseFlags, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { SourceError } from "../../tasks/external.ts";
import { writeCombinedRejects } from "../../tables/rejects.ts";
import {
  DEFAULT_SOURCES,
  runTasksStage,
  TasksRejectedError,
  type TasksStageResult,
} from "../../tasks/tasks_stage.ts";
import { DOMAINS } from "../../tables/schema.ts";

/** How many reject rows the text output lists before pointing at the table. */
const REJECTS_SHOWN = 20;

/** `execret tasks`: read task sources into out/tables/tasks.arrow (+ rejects). */
export const tasksCommand: Command = {
  name: "tasks",
  help: `usage: execret tasks [--source NAME]... [--mirror DIR] [--strict] [--json] [--quiet]

Read task sources into the tasks table (out/tables/tasks.arrow, an Arrow IPC
stream, plus out/parquet/tasks.parquet) and what they rejected
(out/tables/rejects.arrow), then print tasks per source and domain.

Sources (repeat --source; default: builtin, mbpp, humaneval):
  builtin       the built-in tasks, data/builtin_tasks.jsonl
  mbpp          MBPP (974 tasks): downloaded from its official address into the
                cache and verified by content, or read from the mirror
  humaneval     HumanEval (164 tasks): likewise
  release:DIR   an ExecRetrieval release: DIR/queries.jsonl + DIR/corpus.jsonl
                (or DIR/data/...)
  jsonl:PATH    any JSONL file in the task schema of data/TASKS_SCHEMA.md

Options:
  --source NAME  a source to read (repeatable)
  --mirror DIR   read mbpp.jsonl and HumanEval.jsonl.gz from DIR instead of
                 downloading (default: $EXECRET_MIRROR)
  --strict       exit 1 when any input was rejected (the tables are still written)
  --json         print the counts (and every reject) as JSON
  --quiet        no progress lines on stderr
  -h, --help     this text

Environment: EXECRET_MIRROR (mirror folder), EXECRET_MBPP_URL and
EXECRET_HUMANEVAL_URL (override the download addresses), EXECRET_OUT (output
folder, default out), EXECRET_CACHE (cache folder, default out/cache).`,
  async run(args) {
    const { values } = parseFlags(args, {
      source: { type: "string", multiple: true },
      mirror: { type: "string" },
      strict: { type: "boolean" },
      quiet: { type: "boolean" },
    });
    const sources = values.source && values.source.length > 0
      ? values.source
      : [...DEFAULT_SOURCES];
    let result: TasksStageResult;
    let strictFailure: string | null = null;
    try {
      result = await runTasksStage({
        sources,
        mirror: values.mirror,
        strict: values.strict ?? false,
        quiet: values.quiet ?? false,
      });
    } catch (e) {
      if (e instanceof SourceError) throw new UserError(e.message);
      if (!(e instanceof TasksRejectedError)) throw e;
      result = e.result;
      strictFailure = e.message;
    }
    // Run alone, the stage also refreshes the combined rejects table its help names.
    await writeCombinedRejects();
    if (values.json) printJson(result);
    else console.log(formatResult(result));
    if (strictFailure !== null) {
      console.error(`execret tasks: ${strictFailure}`);
      return 1;
    }
    return 0;
  },
};

/** The text report: a domain × source table, notes, and the rejects. */
export function formatResult(result: TasksStageResult): string {
  const sources = Object.keys(result.bySource);
  const header = ["domain", ...sources, "total"];
  const body: string[][] = DOMAINS.map((domain) => [
    domain,
    ...sources.map((s) => String(result.bySourceDomain[s][domain])),
    String(result.byDomain[domain]),
  ]);
  body.push(["total", ...sources.map((s) => String(result.bySource[s])), String(result.tasks)]);
  body.push([
    "rejected",
    ...sources.map((s) => String(result.rejectsBySource[s] ?? 0)),
    String(result.rejects),
  ]);
  const rows = [header, ...body];
  const widths = header.map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) =>
    r.map((cell, c) => c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])).join("  ");
  const out = [
    `tasks: ${result.tasks} written to ${result.path} ` +
    `(domain inferred by keyword rules for ${result.inferred})`,
    "",
    line(header),
    ...body.map(line),
  ];
  const notes = Object.entries(result.notes);
  if (notes.length > 0) out.push("");
  for (const [source, counts] of notes) {
    out.push(`${source}: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", ")}`);
  }
  out.push("", `rejects: ${result.summary}`);
  for (const r of result.rejectRows.slice(0, REJECTS_SHOWN)) {
    out.push(`  ${r.locator}: ${r.reason}`);
  }
  if (result.rejectRows.length > REJECTS_SHOWN) {
    out.push(`  ... ${result.rejectRows.length - REJECTS_SHOWN} more in the rejects table`);
  }
  return out.join("\n");
}
