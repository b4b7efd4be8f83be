import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { readFixture } from "./_fixtures.ts";
import type { SourceRecord } from "./external.ts";
import { jsonlLines } from "./jsonl_lines.ts";
import { deriveEntryPoint, mbppTasks } from "./mbpp.ts";
import { pythonSyntax } from "./python_syntax.ts";

const syntax = await pythonSyntax();

async function records(): Promise<SourceRecord[]> {
  return jsonlLines(await readFixture("mbpp_small.jsonl")).map((l) => ({
    line: l.line,
    value: l.value as Record<string, unknown>,
  }));
}

Deno.test("mbppTasks keeps CRLF and tabs in the code as released and still parses it", async () => {
  const { tasks } = mbppTasks(await records(), "mbpp.jsonl", syntax);
  const first = tasks[0];
  assertEquals(first.task_id, "mbpp/1");
  assertEquals(first.source_id, "1");
  assertEquals(first.entry_point, "grid_sum");
  assertEquals(
    first.canonical.startsWith("R = 3\r\nC = 3\r\ndef grid_sum(grid, m, n): \r\n\ttotal"),
    true,
  );
  assertEquals(
    first.query,
    "Write a function to sum the cells of a grid up to row m and column n.",
  );
  assertEquals(first.locator, "mbpp.jsonl:1");
  assertEquals(first.domain, null);
});

Deno.test("mbppTasks maps test_setup_code to setup and challenge tests to flagged extras", async () => {
  const { tasks } = mbppTasks(await records(), "mbpp.jsonl", syntax);
  const sorted = tasks.find((t) => t.source_id === "7")!;
  assertEquals(sorted.setup, "DATA = [3, 1, 2]\r\nimport math");
  assertEquals(sorted.entry_point, "sorted_copy");
  const tetra = tasks.find((t) => t.source_id === "4")!;
  assertEquals(tetra.tests.length, 2);
  assertEquals(tetra.extra_tests, ["assert tetrahedral_number(1000) == 167167000.0"]);
});

Deno.test("the entry point is the function the tests call, not a class they also call", async () => {
  const { tasks } = mbppTasks(await records(), "mbpp.jsonl", syntax);
  assertEquals(tasks.find((t) => t.source_id === "3")!.entry_point, "max_chain_length");
  assertEquals(
    deriveEntryPoint(
      "def helper(x):\n    return x\ndef main(x):\n    return helper(x)\n",
      ["assert main(1) == 1", "assert main(2) == helper(2)", "assert main(3) == 3"],
      syntax,
    ),
    "main",
  );
});

Deno.test("MBPP rows that cannot run as a task are rejects with their reason", async () => {
  const { tasks, rejects } = mbppTasks(await records(), "mbpp.jsonl", syntax);
  assertEquals(tasks.map((t) => t.source_id), ["1", "3", "4", "7"]);
  const reject = (line: number, reason: string) => ({
    stage: "tasks",
    source: "mbpp",
    locator: `mbpp.jsonl:${line}`,
    reason,
  });
  assertEquals(rejects, [
    // Like MBPP 367 and 927: the setup builds objects of a class the code defines,
    // but the oracle runs the setup first.
    reject(
      2,
      "setup needs the canonical: it uses Node, which only the canonical defines " +
        "(setup runs before the canonical)",
    ),
    reject(5, "does not parse: canonical, line 1"),
    reject(6, "no entry point: the tests call no function the code defines"),
  ]);
});
