/**
 * The leaderboard's documents say what the kit does: the worked example of
 * leaderboard/README.md is the committed entry it names, every committed
 * entry's metadata passes the kit's checks, and the pull-request workflow
 * runs on `pull_request` only, with no secrets, judging entries with the
 * base branch's code and the command the README names.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { checkEntryMeta } from "../../src/leaderboard/entry_meta.ts";
import { LEADERBOARD_DIR, listEntries } from "../../src/leaderboard/entries.ts";

const ROOT = new URL("../../", import.meta.url);
const read = (path: string) => Deno.readTextFileSync(new URL(path, ROOT));

Deno.test("leaderboard/README.md's worked example is the committed entry it names", () => {
  const readme = read("leaderboard/README.md");
  const named = /\(`(leaderboard\/[^`]+\/meta\.json)`\)/.exec(readme)?.[1];
  ok(named, "the README names the example's file");
  const block = /```json\n([\s\S]*?)```/.exec(readme)?.[1];
  ok(block, "the README has a json block");
  deepStrictEqual(JSON.parse(block), JSON.parse(read(named)));
});

Deno.test("every committed entry's meta.json passes the kit's checks, in its benchmark's folder", () => {
  const entries = listEntries(LEADERBOARD_DIR);
  ok(entries.length >= 3, `the kit's own entries are committed (found ${entries.length})`);
  for (const e of entries) {
    const meta = checkEntryMeta(JSON.parse(Deno.readTextFileSync(`${e.dir}/meta.json`)));
    deepStrictEqual(meta.benchmark, e.benchmark, e.shown);
    Deno.statSync(`${e.dir}/${meta.run}`);
  }
});

Deno.test("the leaderboard workflow verifies on pull_request, with no secrets and the base branch's kit", () => {
  const text = read(".github/workflows/leaderboard.yml");
  const code = text.split("\n").filter((l) => !l.trim().startsWith("#")).join("\n");
  ok(/^on:\n\s+pull_request:/m.test(code), "runs on pull_request");
  ok(!code.includes("pull_request_target"), "never pull_request_target");
  ok(!/secrets\./.test(code), "uses no secrets");
  ok(/permissions:\n\s+contents: read\n/.test(code), "a read-only token");
  ok(
    code.includes("ref: ${{ github.event.pull_request.base.sha }}"),
    "checks out the base branch's kit",
  );
  ok(
    code.includes("git checkout FETCH_HEAD -- leaderboard"),
    "takes only the leaderboard folder from the PR",
  );
  ok(
    /execret" leaderboard verify \$entries/.test(code),
    "runs execret leaderboard verify on the changed entries",
  );
  ok(
    read("leaderboard/README.md").includes("execret leaderboard verify"),
    "the README names the command",
  );
});
