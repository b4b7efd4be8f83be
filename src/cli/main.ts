import { type Command, UserError } from "./command.ts";
import { commands } from "./commands.ts";

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    "execret — the ExecRetrieval Kit",
    "",
    "usage: execret <command> [options]   (execret <command> --help for its options)",
    "",
    "commands:",
    ...lines,
  ].join("\n");
}

/** Run the CLI on argv; resolve to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  const command: Command | undefined = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`execret: unknown command "${name}" (try execret --help)`);
    return 2;
  }
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
