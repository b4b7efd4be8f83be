/**
 * Real texts for the tests of the USE fast path: MBPP's solutions and task
 * texts from the dataset mirror (EXECRET_MIRROR, else ../shared/datasets
 * beside the repository; CI always has one, and without it the tests fail
 * loudly rather than pass on nothing).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The dataset mirror (EXECRET_MIRROR, else ../shared/datasets beside the repository). */
function mirrorFolder(): string {
  const fromEnv = Deno.env.get("EXECRET_MIRROR");
  if (fromEnv) return fromEnv;
  const beside = resolve(ROOT, "../shared/datasets");
  if (existsSync(join(beside, "mbpp.jsonl"))) return beside;
  throw new Error("no dataset mirror: set EXECRET_MIRROR to a folder holding mbpp.jsonl");
}

/** MBPP's solutions and task texts, as the mirror has them (CRLF, tabs and all). */
export async function mbppTexts(): Promise<string[]> {
  const raw = await Deno.readTextFile(join(mirrorFolder(), "mbpp.jsonl"));
  return raw.split("\n").filter((l) => l.trim() !== "").flatMap((l) => {
    const r = JSON.parse(l) as { code: string; text: string };
    return [r.code, r.text];
  });
}
