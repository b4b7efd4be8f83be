import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { CHROMIUM_PATH, launchChromium } from "./browser.ts";

/** A stand-in executable that dies by SIGSEGV on its first `crashes` starts, then is Chromium. */
async function crashingChromium(dir: string, crashes: number): Promise<string> {
  const script = join(dir, "chromium");
  const count = join(dir, "starts");
  await Deno.writeTextFile(
    script,
    `#!/bin/sh
echo x >> "${count}"
if [ "$(wc -l < "${count}")" -le ${crashes} ]; then kill -SEGV $$; fi
exec "${CHROMIUM_PATH}" "$@"
`,
  );
  await Deno.chmod(script, 0o755);
  return script;
}

const starts = async (dir: string) =>
  (await Deno.readTextFile(join(dir, "starts"))).trim().split("\n").length;

Deno.test("launchChromium starts the browser again once when it dies while starting", async () => {
  const dir = await Deno.makeTempDir({ prefix: "execret-browser-" });
  try {
    const browser = await launchChromium(await crashingChromium(dir, 1));
    try {
      const page = await browser.newPage();
      await page.setContent("<p>up</p>");
      assertEquals(await page.locator("p").innerText(), "up");
    } finally {
      await browser.close();
    }
    assertEquals(await starts(dir), 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("launchChromium gives up after a second death, and never retries a missing browser", async () => {
  const dir = await Deno.makeTempDir({ prefix: "execret-browser-" });
  try {
    await rejects(launchChromium(await crashingChromium(dir, 2)), /has been closed/);
    assertEquals(await starts(dir), 2);
    await rejects(launchChromium(join(dir, "missing")), (e: Error) => {
      ok(!e.message.includes("has been closed"), e.message);
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
