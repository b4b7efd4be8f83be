import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { LEADERBOARD_METRICS, LEADERBOARD_SQL, leaderboardHeader } from "./queries.ts";

Deno.test("the leaderboard's SQL and headers list the registry's leaderboard metrics", () => {
  assertEquals(LEADERBOARD_METRICS.map((m) => m.name), ["exec", "precision", "ndcg", "gap"]);
  ok(LEADERBOARD_SQL.includes("WHERE k = $1 AND metric IN ('exec', 'precision', 'ndcg', 'gap')\n"));
  assertEquals(leaderboardHeader(3), {
    exec: "exec@3",
    precision: "precision@3",
    ndcg: "nDCG@3",
    gap: "gap@3",
  });
});
