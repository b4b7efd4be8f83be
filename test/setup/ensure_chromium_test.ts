/**
 * scripts/ensure_chromium.sh and `make test`'s use of it. The script looks up
 * only `id` and `apt-get` on PATH, so each case runs it with a PATH holding
 * just the fakes that case needs (no real chromium, apt-get or deno on it),
 * and points EXECRET_CHROMIUM at a file in a temp folder: the machine's own
 * Chromium and packages are never touched.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;
const SCRIPT = join(ROOT, "scripts", "ensure_chromium.sh");

interface Machine {
  dir: string;
  bin: string;
  chromium: string;
  aptLog: string;
}

/** A temp folder with a PATH dir holding a fake `id` (and `apt-get` when asked). */
async function machine(opts: { uid: number; apt: boolean }): Promise<Machine> {
  const dir = await Deno.makeTempDir({ prefix: "execret-chromium-" });
  const bin = join(dir, "bin");
  await Deno.mkdir(bin);
  const m = { dir, bin, chromium: join(dir, "chromium"), aptLog: join(dir, "apt.log") };
  await script(join(bin, "id"), `[ "$1" = -u ] && echo ${opts.uid}`);
  if (opts.apt) {
    // Logs each call; `install` puts an executable where Chromium is expected, as the package does.
    await script(
      join(bin, "apt-get"),
      `echo "DEBIAN_FRONTEND=\${DEBIAN_FRONTEND:-} $*" >> "${m.aptLog}"
       if [ "$1" = install ]; then echo '#!/bin/sh' > "${m.chromium}"; /bin/chmod +x "${m.chromium}"; fi`,
    );
  }
  return m;
}

async function script(path: string, body: string): Promise<void> {
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}\n`);
  await Deno.chmod(path, 0o755);
}

/** Run `cmd args` with only PATH and EXECRET_CHROMIUM set (plus `extra`). */
async function run(
  m: Machine,
  cmd: string,
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ code: number; lines: string[] }> {
  const out = await new Deno.Command(cmd, {
    args,
    cwd: ROOT,
    clearEnv: true,
    env: { PATH: m.bin, EXECRET_CHROMIUM: m.chromium, ...extra },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, lines: text.split("\n").filter((l) => l !== "") };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("ensure_chromium: present Chromium is a silent pass", async () => {
  const m = await machine({ uid: 0, apt: true });
  await script(m.chromium, "exit 0");
  assertEquals(await run(m, "/bin/sh", [SCRIPT]), { code: 0, lines: [] });
  ok(!(await exists(m.aptLog)), "apt-get was called");
  await Deno.remove(m.dir, { recursive: true });
});

for (const [name, uid, apt] of [["not root", 1000, true], ["no apt-get", 0, false]] as const) {
  Deno.test(`ensure_chromium: missing and ${name} stops with one line`, async () => {
    const m = await machine({ uid, apt });
    const { code, lines } = await run(m, "/bin/sh", [SCRIPT]);
    assertEquals(code, 1);
    assertEquals(lines.length, 1, lines.join("\n"));
    ok(lines[0].includes(`Chromium at ${m.chromium}`), lines[0]);
    ok(lines[0].includes("install the chromium package"), lines[0]);
    ok(!(await exists(m.aptLog)), "apt-get was called");
    await Deno.remove(m.dir, { recursive: true });
  });
}

Deno.test("ensure_chromium: missing, as root with apt-get, installs the chromium package", async () => {
  const m = await machine({ uid: 0, apt: true });
  const { code } = await run(m, "/bin/sh", [SCRIPT]);
  assertEquals(code, 0);
  assertEquals((await Deno.readTextFile(m.aptLog)).trim().split("\n"), [
    "DEBIAN_FRONTEND= update -qq",
    "DEBIAN_FRONTEND=noninteractive install -y -qq chromium",
  ]);
  ok(await exists(m.chromium));
  await Deno.remove(m.dir, { recursive: true });
});

Deno.test("make test: missing Chromium that cannot be installed runs nothing", async () => {
  const m = await machine({ uid: 1000, apt: false });
  // Every deno call the Makefile would make goes to this fake, which leaves a mark.
  const marker = join(m.dir, "deno-ran");
  const deno = join(m.dir, "deno");
  await script(deno, `echo "$*" >> "${marker}"`);
  const make = new TextDecoder().decode(
    (await new Deno.Command("/bin/sh", { args: ["-c", "command -v make"] }).output()).stdout,
  ).trim();
  ok(make, "make not found");
  const { code, lines } = await run(m, make, ["--no-print-directory", "test", `DENO=${deno}`]);
  ok(code !== 0, "make test passed without Chromium");
  // Make adds its own "make: *** [...] Error 1"; besides that, only the script's line.
  const said = lines.filter((l) => !l.startsWith("make: ***"));
  assertEquals(said.length, 1, lines.join("\n"));
  ok(said[0].startsWith("make test needs Chromium"), said[0]);
  ok(!(await exists(marker)), `deno ran: ${await Deno.readTextFile(marker).catch(() => "")}`);
  await Deno.remove(m.dir, { recursive: true });
});
