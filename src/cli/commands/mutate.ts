import { type Command, parseFlags, positiveInt, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { runMutateStage } from "../../mutate/mutate_stage.ts";
import { DEFAULT_SEED } from "../../mutate/select.ts";
import { BUG_TYPES } from "../../tables/schema.ts";

/** `execret mutate`: generate single-edit buggy candidates into mutants.arrow. */
export const mutateCommand: Command = {
  name: "mutate",
  help: `usage: execret mutate [--seed N] [--extensions] [--workers N] [--quiet] [--json]

Read out/tables/tasks.arrow, make every syntactically valid single-edit variant
of each canonical (tree-sitter sites for the paper's six bug types), order each
task's candidates by a seeded order that spreads bug types, and write
out/tables/mutants.arrow plus the stage's rejects. Prints, per bug type, how
many tasks have at least one candidate, and per source the share of tasks with
at least 4 candidates covering at least 3 bug types.

options:
  --seed N        seed of the selection order (default ${DEFAULT_SEED})
  --extensions    also run the extension operators (every bug type
                  marked "(extension)" in data/MUTATION_OPERATORS.md), labelled
                  extension=true and spread among the paper's types in each
                  task's order; the coverage line then also counts them
  --workers N     threads to spread tasks over (default: cores, at most 4);
                  the output is the same for any N
  --quiet         no progress line
  --json          print the summary as JSON`,
  async run(args) {
    const { values } = parseFlags(args, {
      seed: { type: "string" },
      extensions: { type: "boolean" },
      quiet: { type: "boolean" },
      workers: { type: "string" },
    });
    const seed = values.seed === undefined ? DEFAULT_SEED : Number(values.seed);
    if (!Number.isSafeInteger(seed) || seed < 0) {
      throw new UserError(`--seed must be a non-negative integer, got "${values.seed}"`, 2);
    }
    let summary;
    try {
      summary = await runMutateStage({
        seed,
        extensions: values.extensions ?? false,
        quiet: values.quiet ?? values.json,
        workers: values.workers === undefined
          ? undefined
          : positiveInt("workers", values.workers, 1),
      });
    } catch (e) {
      if (e instanceof Error && e.message.includes("table not found")) {
        throw new UserError(e.message);
      }
      throw e;
    }
    if (values.json) {
      printJson(summary);
      return 0;
    }
    const types = [
      ...BUG_TYPES,
      ...Object.keys(summary.tasks_per_bug_type).filter((t) =>
        !(BUG_TYPES as readonly string[]).includes(t)
      ),
    ];
    const width = Math.max(...types.map((t) => t.length));
    console.log(
      `mutants: ${summary.candidates} candidates for ${summary.tasks} tasks ` +
        `(seed ${summary.seed}${summary.extensions ? ", with extensions" : ""}), ` +
        `${summary.rejects} rejects`,
    );
    console.log(`${"bug type".padEnd(width)}  tasks with >=1  candidates`);
    for (const type of types) {
      const tasks = summary.tasks_per_bug_type[type] ?? 0;
      const n = summary.candidates_per_bug_type[type] ?? 0;
      console.log(
        `${type.padEnd(width)}  ${String(tasks).padStart(14)}  ${String(n).padStart(10)}`,
      );
    }
    console.log("coverage (>=4 candidates over >=3 bug types, paper types only):");
    const rows = [
      ...Object.entries(summary.coverage_per_source),
      ["all", summary.coverage] as const,
    ];
    for (const [source, c] of rows) {
      console.log(
        `  ${String(source).padEnd(12)} ${c.covered}/${c.tasks} = ${
          (100 * c.coverage).toFixed(1)
        }%` +
          ` (${c.with_candidates} with any candidate` +
          (summary.extensions ? `; ${c.covered_with_extensions} counting extensions)` : ")"),
      );
    }
    return 0;
  },
};
