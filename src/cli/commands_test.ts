import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { commands } from "./commands.ts";
import { main } from "./main.ts";

Deno.test("each command list entry loads the command of its name, with its help", async () => {
  const names = commands.map((c) => c.name);
  assertEquals(new Set(names).size, names.length, `a name listed twice: ${names}`);
  for (const entry of commands) {
    const command = await entry.load();
    assertEquals(command.name, entry.name);
    ok(entry.summary.length > 0 && !entry.summary.includes("\n"), `${entry.name}: one line`);
    ok(command.help.startsWith(`usage: execret ${entry.name}`), `${entry.name}: ${command.help}`);
  }
});

Deno.test("execret --help lists every command; an unknown one is refused", async () => {
  const printed: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = (...a: unknown[]) => printed.push(a.join(" "));
  console.error = (...a: unknown[]) => printed.push(a.join(" "));
  try {
    assertEquals(await main(["--help"]), 0);
    for (const c of commands) {
      ok(printed[0].includes(`  ${c.name} `) && printed[0].includes(c.summary), c.name);
    }
    assertEquals(await main(["no-such-command"]), 2);
    assertEquals(printed[1], 'execret: unknown command "no-such-command" (try execret --help)');
    assertEquals(await main(["sql", "--help"]), 0);
    ok(printed[2].startsWith('usage: execret sql "<SQL>"'), printed[2]);
  } finally {
    [console.log, console.error] = [log, error];
  }
});
