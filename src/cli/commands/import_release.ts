import type { Command } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { reproduceCommand } from "./reproduce.ts";

/**
 * `execret import-release DIR`: the release run on a bundle already on disk,
 * `execret reproduce --profile release --source release:DIR`. There is one
 * reader of the release and one audit, the release profile's stages; this
 * name is kept for the hands that learned it.
 */
export const importReleaseCommand: Command = {
  name: "import-release",
  help: `usage: execret import-release DIR [reproduce's options]

The same as: execret reproduce --profile release --source release:DIR

Reads the paper's released bundle in DIR with the kit's one reader of the
release, re-executes its pool in the sandbox, scores its saved matrices, and
sets every released number beside the kit's (paper_comparison,
ranking_agreement, oracle_agreement, oracle_not_in_release), with what the
reader noticed in the bundle in release_findings; the report site's "Release
audit" page shows them. A bundle is refused only where recomputation is
impossible (a missing file, an id that does not exist, an unreadable file or
matrix). Other options (--no-site, --json, --skip-unavailable) are passed to
reproduce.`,
  async run(args) {
    if (args.includes("-h") || args.includes("--help")) {
      console.log(this.help);
      return 0;
    }
    return await reproduceCommand.run(reproduceArgs(args));
  },
};

/**
 * The `reproduce` arguments `import-release` stands for: the one folder
 * given becomes the release profile's source, every option is passed on.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(reproduceArgs(["bundle", "--no-site"]), [
 *   "--profile", "release", "--source", "release:bundle", "--no-site",
 * ]);
 * ```
 */
export function reproduceArgs(args: readonly string[]): string[] {
  const dirs = args.filter((a) => !a.startsWith("-"));
  if (dirs.length !== 1) {
    throw new UserError("import-release needs exactly one bundle folder (see --help)", 2);
  }
  const rest = args.filter((a) => a !== dirs[0]);
  return ["--profile", "release", "--source", `release:${dirs[0]}`, ...rest];
}
