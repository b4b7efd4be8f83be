import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { SourceError } from "./external.ts";
import { resolveSource, type SourceRegistry, TASK_SOURCES } from "./source_registry.ts";

Deno.test("a source name resolves to its kind and argument", () => {
  const kindOf = (name: string) => {
    const { source, arg } = resolveSource(name, TASK_SOURCES);
    const kind = Object.entries(TASK_SOURCES).find(([, s]) => s === source)![0];
    return [kind, arg];
  };
  assertEquals(kindOf("builtin"), ["builtin", ""]);
  assertEquals(kindOf("mbpp"), ["mbpp", ""]);
  assertEquals(kindOf("humaneval"), ["humaneval", ""]);
  assertEquals(kindOf("release:out/bundle"), ["release", "out/bundle"]);
  // Only the first colon separates: a Windows path or a URL-ish argument stays whole.
  assertEquals(kindOf("jsonl:C:/tasks.jsonl"), ["jsonl", "C:/tasks.jsonl"]);
});

Deno.test("an unknown kind, a missing or an unexpected argument lists what is accepted", () => {
  const expected = "(expected builtin, mbpp, humaneval, jsonl:<path> or release:<dir>)";
  for (const name of ["nope", "release", "release:", "jsonl:", "mbpp:x", "toString"]) {
    throws(
      () => resolveSource(name, TASK_SOURCES),
      (e) => e instanceof SourceError && e.message === `unknown source "${name}" ${expected}`,
      name,
    );
  }
});

Deno.test("another registry is listed in its own order", () => {
  const registry: SourceRegistry = {
    only: { argument: null, read: () => Promise.reject(new Error("unused")) },
  };
  assertEquals(resolveSource("only", registry).arg, "");
  throws(
    () => resolveSource("builtin", registry),
    /^SourceError: unknown source "builtin" \(expected only\)$/,
  );
});

Deno.test("every source a run can name is in the one registry, the paper's release last", () => {
  assertEquals(Object.keys(TASK_SOURCES), ["builtin", "mbpp", "humaneval", "jsonl", "release"]);
});
