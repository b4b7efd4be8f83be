import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadManifest, obtainSource, SourceError } from "./external.ts";
import { humanEvalTasks } from "./humaneval.ts";
import { readTaskJsonl } from "./jsonl.ts";
import { mbppTasks } from "./mbpp.ts";
import type { PythonSyntax } from "./python_syntax.ts";
import { readRelease } from "./release_tasks.ts";
import type { SourceRead } from "./task.ts";

/** What a task source reader gets besides its argument. */
export interface SourceContext {
  /** Folder holding the external task sets (`EXECRET_MIRROR`), if any. */
  mirror?: string;
  quiet?: boolean;
  /** The built-in tasks file, when a test points it elsewhere. */
  builtinPath?: string;
  syntax: PythonSyntax;
  /** Progress notes for stderr (silent when quiet). */
  log: (message: string) => void;
}

/** A source's tasks and the name its rows carry in the `source` column. */
export interface SourceOutput {
  label: string;
  read: SourceRead;
}

/**
 * One kind of task source. A source named on the command line is either the
 * kind's name alone (`mbpp`) or, when the kind takes an argument, the name,
 * a colon and the argument (`jsonl:path/to/tasks.jsonl`).
 */
export interface TaskSource {
  /** Placeholder of the argument in messages (`<path>`), or null for none. */
  argument: string | null;
  /** Read the source; `arg` is "" for a source without argument. */
  read(arg: string, context: SourceContext): Promise<SourceOutput>;
  /**
   * The files or folders `read` reads, so the tasks stage is stamped with
   * their content and reruns when one changes. Default: the argument itself
   * (a `jsonl:FILE`, a `pyfiles:DIR`); a source without argument whose input
   * is fixed elsewhere (a digest in data/sources.json) returns none.
   */
  inputs?(arg: string, context: Pick<SourceContext, "builtinPath">): string[];
}

/** Task source kinds by name, in the order messages list them. */
export type SourceRegistry = Readonly<Record<string, TaskSource>>;

/** The committed built-in tasks, as a path and as the name locators use. */
const BUILTIN_URL = new URL("../../data/builtin_tasks.jsonl", import.meta.url);
const BUILTIN_LABEL = "data/builtin_tasks.jsonl";

/** A task set of the source manifest (`data/sources.json`), fetched and verified. */
function manifestSource(
  name: "mbpp" | "humaneval",
  tasks: typeof mbppTasks,
): TaskSource {
  return {
    argument: null,
    async read(_arg, ctx) {
      const spec = (await loadManifest())[name];
      const file = await obtainSource(spec, { mirror: ctx.mirror, quiet: ctx.quiet });
      if (file.via !== "mirror") ctx.log(`tasks: ${name}: verified ${file.origin} (${file.via})`);
      return { label: name, read: tasks(file.records, spec.file, ctx.syntax) };
    },
  };
}

/**
 * Every task source a run can name. To add one, write its reader (a
 * function to a {@link SourceRead}) and add one line here; `buildTasks`
 * takes another registry for tests and extensions.
 */
export const TASK_SOURCES: SourceRegistry = {
  builtin: {
    argument: null,
    inputs: (_arg, ctx) => [ctx.builtinPath ?? fileURLToPath(BUILTIN_URL)],
    async read(_arg, ctx) {
      const path = ctx.builtinPath ?? fileURLToPath(BUILTIN_URL);
      const label = ctx.builtinPath ?? BUILTIN_LABEL;
      return {
        label: "builtin",
        read: readTaskJsonl(await readFile(path), label, "builtin", ctx.syntax),
      };
    },
  },
  mbpp: manifestSource("mbpp", mbppTasks),
  humaneval: manifestSource("humaneval", humanEvalTasks),
  jsonl: {
    argument: "<path>",
    async read(path, ctx) {
      const label = `jsonl:${basename(path)}`;
      return { label, read: readTaskJsonl(await readFile(path), path, label, ctx.syntax) };
    },
  },
  // The paper's release, `release:<dir>`: its queries with their canonicals and tests. It reads
  // the bundle's two data files in either layout (`data/` or the top level); those, not the
  // whole folder (whose embeddings the tasks do not read), are the tasks stage's inputs.
  release: {
    argument: "<dir>",
    inputs: (dir) =>
      ["data/queries.jsonl", "data/corpus.jsonl", "queries.jsonl", "corpus.jsonl"].map((f) =>
        join(dir, f)
      ),
    async read(dir, ctx) {
      return { label: "release", read: await readRelease(dir, ctx.syntax) };
    },
  },
};

/**
 * The reader of a source as named on the command line, with its argument:
 * `mbpp` → the `mbpp` kind; `release:out/bundle` → the `release` kind with
 * `out/bundle`. A name no kind of `registry` accepts (an unknown kind, an
 * argument missing or not expected) is a one-line {@link SourceError}
 * listing what is accepted.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const { source, arg } = resolveSource("jsonl:my_tasks.jsonl");
 * strictEqual(source, TASK_SOURCES.jsonl);
 * strictEqual(arg, "my_tasks.jsonl"); // source.read(arg, context) then reads the file
 * ```
 */
export function resolveSource(
  name: string,
  registry: SourceRegistry = TASK_SOURCES,
): { source: TaskSource; arg: string } {
  const colon = name.indexOf(":");
  const kind = colon < 0 ? name : name.slice(0, colon);
  const arg = colon < 0 ? "" : name.slice(colon + 1);
  const source = Object.hasOwn(registry, kind) ? registry[kind] : undefined;
  if (source && (source.argument === null ? colon < 0 : arg !== "")) return { source, arg };
  const accepted = Object.entries(registry).map(([k, s]) =>
    s.argument === null ? k : `${k}:${s.argument}`
  );
  const list = accepted.length > 1
    ? `${accepted.slice(0, -1).join(", ")} or ${accepted[accepted.length - 1]}`
    : accepted.join("");
  throw new SourceError(`unknown source "${name}" (expected ${list})`);
}

async function readFile(path: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(path);
  } catch (e) {
    const why = e instanceof Deno.errors.NotFound ? "not found" : (e as Error).message;
    throw new SourceError(`${path}: ${why}`);
  }
}
