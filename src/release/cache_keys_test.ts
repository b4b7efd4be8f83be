import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { sha256Hex } from "../io/hash.ts";
import { detectTestsRule, kitOutcome, pythonJsonDumps } from "./cache_keys.ts";
import { readBundle } from "./read_bundle.ts";
import { brokenBundle, editLines, FIXTURE_BUNDLE } from "../../test/support/fixture_bundle.ts";

Deno.test("pythonJsonDumps writes what Python's json.dumps writes", () => {
  // From python3: json.dumps(['a\x7fé"\\\n\x01😀', "assert f(1) == 2"])
  assertEquals(
    pythonJsonDumps(['a\x7fé"\\\n\x01😀', "assert f(1) == 2"]),
    '["a\\u007f\\u00e9\\"\\\\\\n\\u0001\\ud83d\\ude00", "assert f(1) == 2"]',
  );
});

Deno.test("the fixture's cache keys follow Python's json.dumps, every pair found", async () => {
  const d = detectTestsRule(await readBundle(FIXTURE_BUNDLE));
  assertEquals(d, {
    rule: "python_json_dumps",
    hits: { python_json_dumps: 119, json_stringify: 0, python_json_compact: 0, newline_joined: 0 },
    pairs: 119,
  });
});

Deno.test("a bundle keyed by JSON.stringify is detected as such", async () => {
  const bundle = await readBundle(FIXTURE_BUNDLE);
  const rekey = new Map<string, string>();
  for (const q of bundle.queries) {
    rekey.set(sha256Hex(pythonJsonDumps(q.test_suite)), sha256Hex(JSON.stringify(q.test_suite)));
  }
  const dir = await brokenBundle((d) =>
    editLines(join(d, "data/execution_cache.jsonl"), (lines) =>
      lines.map((l) => {
        const row = JSON.parse(l);
        row.tests_sha256 = rekey.get(row.tests_sha256) ?? row.tests_sha256;
        return JSON.stringify(row);
      }))
  );
  try {
    assertEquals(detectTestsRule(await readBundle(dir)).rule, "json_stringify");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Python's compact separators differ from JSON.stringify only in escaping", () => {
  // From python3: json.dumps(["a", "é"], separators=(",", ":"))
  assertEquals(pythonJsonDumps(["a", "é"], ","), '["a","\\u00e9"]');
  assertEquals(pythonJsonDumps(["a", "b"], ","), JSON.stringify(["a", "b"]));
});

Deno.test("a released FAIL with a message is a FAIL in the kit's vocabulary", () => {
  assertEquals(
    ["pass", "FAIL", "FAIL:both ends", "FAIL: both ends", "TIMEOUT", "ERROR:IndexError"].map(
      kitOutcome,
    ),
    ["pass", "FAIL", "FAIL", "FAIL", "TIMEOUT", "ERROR:IndexError"],
  );
});
