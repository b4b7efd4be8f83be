import { parseArgs, type ParseArgsConfig } from "node:util";
import { UserError } from "../io/user_error.ts";

/**
 * A subcommand of `execret`. Each lives in its own file under `commands/`;
 * its line in the command list is in `commands.ts`, which loads the file
 * only when the command runs.
 */
export interface Command {
  name: string;
  /** Full `--help` text: usage line, then options. */
  help: string;
  /** Run with the arguments after the command name; resolve to the exit code. */
  run(args: string[]): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * Parse flags strictly (unknown flags are errors), always accepting `--help`
 * and `--json`. Returns null values as undefined like node's parseArgs.
 */
export function parseFlags<O extends Options>(
  args: string[],
  options: O,
  allowPositionals = false,
) {
  try {
    return parseArgs({
      args,
      options: { help: { type: "boolean", short: "h" }, json: { type: "boolean" }, ...options },
      allowPositionals,
      strict: true,
    });
  } catch (e) {
    throw new UserError((e as Error).message.split("\n")[0], 2);
  }
}

/** Parse a flag value as a positive integer or fail with a one-line error. */
export function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new UserError(`--${name} must be a positive integer, got "${value}"`, 2);
  }
  return n;
}

/** Print data as JSON (for `--json`) on stdout. */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}
