import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { readFixture } from "../../test/support/source_fixtures.ts";
import type { SourceRecord } from "./external.ts";
import { jsonlLines } from "../io/jsonl_lines.ts";
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
  assertEquals(tasks.map((t) => t.source_id), ["1", "2", "3", "4", "7"]);
  const reject = (line: number, reason: string) => ({
    stage: "tasks",
    source: "mbpp",
    locator: `mbpp.jsonl:${line}`,
    reason,
  });
  assertEquals(rejects, [
    reject(5, "does not parse: canonical, line 1"),
    reject(6, "no entry point: the tests call no function the code defines"),
  ]);
});

Deno.test("an MBPP setup that builds fixtures from the code's class is kept, setup as released", () => {
  // Shaped like MBPP 367 and 927 (not their text): the setup runs after the
  // code, so it may use the class the code defines.
  const code = "class Tree:\r\n\tdef __init__(self, v):\r\n\t\tself.v = v\r\n" +
    "\t\tself.kids = []\r\ndef size(t):\r\n\treturn 1 + sum(size(k) for k in t.kids)";
  const setup = "t = Tree(1)\r\nt.kids.append(Tree(2))\r\nt2 = Tree(3)";
  const { tasks, rejects } = mbppTasks(
    [{
      line: 1,
      value: {
        task_id: 9001,
        text: "Write a function to count the nodes of a tree.",
        code,
        test_setup_code: setup,
        test_list: ["assert size(t) == 2", "assert size(t2) == 1"],
        challenge_test_list: [],
      },
    }],
    "mbpp.jsonl",
    syntax,
  );
  assertEquals(rejects, []);
  assertEquals(tasks.map((t) => [t.entry_point, t.setup]), [["size", setup]]);
});
