import { deepStrictEqual as assertEquals, notDeepStrictEqual, ok } from "node:assert/strict";
import { DEFAULT_SEED, seededKey, selectionOrder } from "./select.ts";
import { sha256Hex } from "../io/hash.ts";

function candidates(
  spec: Record<string, string[]>,
): { bug_type: string; operator: string; code: string }[] {
  return Object.entries(spec).flatMap(([bug_type, ops]) =>
    ops.flatMap((operator) =>
      [1, 2].map((k) => ({ bug_type, operator, code: `${bug_type}/${operator}/${k}` }))
    )
  );
}

const pool = candidates({
  off_by_one: ["index_plus_one", "range_stop_minus_one", "offset_plus_one"],
  wrong_operator: ["add_to_sub", "mul_to_div"],
  wrong_comparison: ["lt_to_le"],
  swap_arguments: ["swap_args"],
});

Deno.test("seededKey is the documented SHA-256 of seed NUL task NUL text", () => {
  assertEquals(seededKey(7, "mbpp/1", "x"), sha256Hex("7\u0000mbpp/1\u0000x"));
});

Deno.test("selectionOrder spreads bug types: no type twice before every type once", () => {
  const ordered = selectionOrder(pool, { seed: DEFAULT_SEED, taskId: "mbpp/1" });
  assertEquals(ordered.length, pool.length);
  assertEquals(new Set(ordered.slice(0, 4).map((c) => c.bug_type)).size, 4);
  // A type's (k+1)-th candidate comes only after every type with at least k has k.
  const total = (t: string) => pool.filter((p) => p.bug_type === t).length;
  const counts = new Map<string, number>();
  for (const c of ordered) {
    const k = counts.get(c.bug_type) ?? 0;
    for (const t of new Set(pool.map((p) => p.bug_type))) {
      if (total(t) >= k) ok((counts.get(t) ?? 0) >= k, `${c.bug_type} #${k + 1} before ${t} #${k}`);
    }
    counts.set(c.bug_type, k + 1);
  }
  // Within a type, operators are spread too: off_by_one's first three are three operators.
  const obo = ordered.filter((c) => c.bug_type === "off_by_one").slice(0, 3).map((c) => c.operator);
  assertEquals(new Set(obo).size, 3);
});

Deno.test("selectionOrder is deterministic, seed- and task-dependent, and independent of input order", () => {
  const a = selectionOrder(pool, { seed: 1, taskId: "t" });
  assertEquals(selectionOrder([...pool].reverse(), { seed: 1, taskId: "t" }), a);
  const others = [2, 3, 4, 5].map((seed) => selectionOrder(pool, { seed, taskId: "t" }));
  ok(others.some((o) => JSON.stringify(o) !== JSON.stringify(a)), "some seed reorders");
  notDeepStrictEqual(
    [1, 2, 3, 4, 5].map((seed) => selectionOrder(pool, { seed, taskId: "u" })),
    [1, 2, 3, 4, 5].map((seed) => selectionOrder(pool, { seed, taskId: "t" })),
  );
});

Deno.test("adding a candidate of a new type leaves the others' relative order alone", () => {
  const before = selectionOrder(pool, { seed: 9, taskId: "t" });
  const extra = { bug_type: "remove_edge_case_check", operator: "delete_guard", code: "z" };
  const after = selectionOrder([...pool, extra], { seed: 9, taskId: "t" });
  assertEquals(after.filter((c) => c !== extra), before);
});

Deno.test("each round takes the paper's types before extension types, and the paper's order stays", () => {
  const ext = (bug_type: string, code: string) => ({
    bug_type,
    operator: "op",
    code,
    extension: true,
  });
  const extras = [
    ext("wrong_variable", "v1"),
    ext("wrong_variable", "v2"),
    ext("wrong_string", "s1"),
  ];
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const paper = selectionOrder(pool, { seed, taskId: "t" });
    const both = selectionOrder([...extras, ...pool], { seed, taskId: "t" });
    assertEquals(both.filter((c) => !("extension" in c)), paper);
    // The first round: one of each paper type, then one of each extension type.
    const paperTypes = new Set(pool.map((c) => c.bug_type)).size;
    assertEquals(new Set(both.slice(0, paperTypes).map((c) => c.bug_type)).size, paperTypes);
    ok(both.slice(0, paperTypes).every((c) => !("extension" in c)), `seed ${seed}`);
    assertEquals(
      new Set(both.slice(paperTypes, paperTypes + 2).map((c) => c.bug_type)),
      new Set(["wrong_variable", "wrong_string"]),
    );
  }
});
