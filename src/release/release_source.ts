import { join } from "node:path";
import type { TaskSource } from "../sources/registry.ts";
import { readRelease } from "./release_tasks.ts";

/**
 * The paper's release as a task source, `release:<dir>`: its queries with
 * their canonicals and tests. It reads the bundle's two data files in
 * either layout (`data/` or the top level); those, not the whole folder
 * (whose embeddings the tasks do not read), are the tasks stage's inputs.
 */
export const RELEASE_SOURCE: TaskSource = {
  argument: "<dir>",
  inputs: (dir) =>
    ["data/queries.jsonl", "data/corpus.jsonl", "queries.jsonl", "corpus.jsonl"].map((f) =>
      join(dir, f)
    ),
  async read(dir, ctx) {
    return { label: "release", read: await readRelease(dir, ctx.syntax) };
  },
};
