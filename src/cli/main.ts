import { resolve } from "node:path";
import type { Command } from "./command.ts";
import { UserError } from "../io/user_error.ts";
import { commands } from "./commands.ts";

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    "execret — the ExecRetrieval Kit",
    "",
    "usage: execret <command> [options]   (execret <command> --help for its options)",
    "",
    "Every command also takes --invocations FILE (repeatable; or EXECRET_INVOCATIONS, colon-",
    "separated): your own configs, in the schema of data/invocations.json, beside the built-in ones.",
    "",
    "commands:",
    ...lines,
  ].join("\n");
}

/**
 * Take every `--invocations FILE` (or `--invocations=FILE`) out of `args`,
 * and add the files, as absolute paths, to `EXECRET_INVOCATIONS`: every
 * command that reads configs then reads their entries beside the built-in
 * table, and so do the processes it starts. Returns the other arguments.
 */
export function takeInvocationFiles(args: string[]): string[] {
  const rest: string[] = [];
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--invocations") {
      const file = args[++i];
      if (file === undefined || file.startsWith("--")) {
        throw new UserError(
          "--invocations needs a file (an invocation table, as data/invocations.json)",
          2,
        );
      }
      files.push(file);
    } else if (a.startsWith("--invocations=")) files.push(a.slice("--invocations=".length));
    else rest.push(a);
  }
  if (files.length > 0) {
    const known = (Deno.env.get("EXECRET_INVOCATIONS") ?? "").split(":").filter((f) => f !== "");
    const added = files.map((f) => resolve(f)).filter((f) => !known.includes(f));
    Deno.env.set("EXECRET_INVOCATIONS", [...known, ...added].join(":"));
  }
  return rest;
}

/** Run the CLI on argv; resolve to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...given] = argv;
  let rest: string[];
  try {
    rest = takeInvocationFiles(given);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    console.error(`execret ${name}: ${e.message}`);
    return e.exitCode;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    console.error(`execret: unknown command "${name}" (try execret --help)`);
    return 2;
  }
  const command: Command = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(command.help);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UserError) {
      console.error(`execret ${name}: ${e.message}`);
      return e.exitCode;
    }
    throw e;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
