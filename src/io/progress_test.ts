import { strictEqual } from "node:assert/strict";
import { etaSeconds } from "./progress.ts";

Deno.test("no ETA before 1% is done, then the time left at the rate so far", () => {
  // One suite in the 5 s a pool takes to boot would promise three hours.
  strictEqual(etaSeconds(1, 2414, 5), 0);
  strictEqual(etaSeconds(24, 2414, 5), 0);
  strictEqual(etaSeconds(100, 1000, 10), 90);
  strictEqual(etaSeconds(1000, 1000, 10), 0);
  strictEqual(etaSeconds(0, 1000, 10), 0);
});
