import { type Command, parseFlags, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { mergeCaches } from "../../pipeline/merge_cache.ts";
import { cacheDir } from "../../io/paths.ts";

/** `execret merge-cache DIR...`: merge shard cache folders into the local cache. */
export const mergeCacheCommand: Command = {
  name: "merge-cache",
  help: `usage: execret merge-cache DIR... [--json]

Merge cache folders written by \`execret oracle --shard i/n\` and
\`execret embed --shard i/n\` (each run with its own EXECRET_CACHE) into the
local cache (EXECRET_CACHE, default out/cache). Execution caches become the
union of their lines, one per suite, sorted; vector segments are copied by
name, and two different segments under one name are an error. The result does
not depend on the order of the folders. Then a plain \`execret oracle\` /
\`execret embed\` finds everything cached and writes the tables.`,
  async run(args) {
    const { values, positionals } = parseFlags(args, {}, true);
    if (positionals.length === 0) throw new UserError("give at least one cache folder", 2);
    let result;
    try {
      result = await mergeCaches(positionals);
    } catch (e) {
      throw new UserError((e as Error).message.split("\n")[0]);
    }
    if (values.json) printJson(result);
    else {
      console.log(
        `merge-cache: ${result.suites} suites in ${result.executionFiles} execution caches, ` +
          `${result.segmentsCopied} vector segments copied (${result.segmentsPresent} already ` +
          `present) into ${cacheDir()}`,
      );
    }
    return 0;
  },
};
