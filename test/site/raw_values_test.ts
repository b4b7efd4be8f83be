import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { launchChromium } from "../../src/report/browser.ts";
import { rawValueLines } from "./raw_values.ts";

const PAGE = `<!doctype html><body>
<p>exec@1 <span>null</span></p>
<p>nullable, nulls, NaNs and undefinedness are words of their own</p>
<table><tr><td>gap</td><td>NaN%</td></tr></table>
<p hidden>undefined but hidden</p>
<textarea>SELECT * FROM t WHERE x IS null</textarea>
<input value="undefined">
<div contenteditable>SELECT NaN</div>
<div class="cm-editor"><div>WHERE y = null</div></div>
<p>after the editors: undefined</p>
</body>`;

Deno.test({
  name: "rawValueLines finds raw null/undefined/NaN words in the shown text, not in editors",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.setContent(PAGE);
      assertEquals(await rawValueLines(page), [
        "exec@1 null",
        "gap\tNaN%",
        "after the editors: undefined",
      ]);
      // The editors are shown again afterwards.
      assertEquals(await page.locator("textarea").isVisible(), true);
    } finally {
      await browser.close();
    }
  },
});
