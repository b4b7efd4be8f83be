import { UserError } from "../io/user_error.ts";

/**
 * One thing wrong with a released bundle: where (a `file:line`, or a file
 * and the id inside it) and what. Becomes one line of the import's error
 * output and one row of the `import` rejects.
 */
export interface BundleProblem {
  locator: string;
  reason: string;
}

/**
 * A bundle that cannot be audited as it stands. The message is one line: the
 * first problem, plus how many more there are (all of them are in
 * `problems`, and the CLI writes them to the rejects table).
 */
export class BundleError extends UserError {
  constructor(readonly problems: BundleProblem[]) {
    const first = problems[0];
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : "";
    super(`${first.locator}: ${first.reason}${more}`);
    this.name = "BundleError";
  }
}
