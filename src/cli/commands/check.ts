import { type Command, parseFlags, printJson } from "../command.ts";
import { ALL_CHECKS } from "../../check/all_checks.ts";
import { runChecks } from "../../check/check.ts";

/** `execret check`: integrity audit of a finished run. */
export const checkCommand: Command = {
  name: "check",
  help: `usage: execret check [--json]

Audit the run in out/ (or EXECRET_OUT), in the spirit of the paper's sanity
script: ids unique and consistent across tables; every query's canonical and
paired distractors in the pool; every canonical passing all tests and every
distractor failing one (re-verified from the recorded executions); each
distractor one edit of its recorded type from its canonical; embeddings
finite and of declared size; every metric recomputed from rankings equal to
metrics; manifest digests equal to the files. Prints each check with PASS or
FAIL and exits 1 when any fails.`,
  async run(args) {
    const { values } = parseFlags(args, {});
    const results = await runChecks(ALL_CHECKS);
    if (values.json) printJson(results);
    else {
      for (const r of results) console.log(`${r.ok ? "PASS" : "FAIL"}  ${r.name} — ${r.detail}`);
      const failed = results.filter((r) => !r.ok).length;
      console.log(
        failed === 0
          ? `all ${results.length} checks pass`
          : `${failed} of ${results.length} checks fail`,
      );
    }
    return results.every((r) => r.ok) ? 0 : 1;
  },
};
