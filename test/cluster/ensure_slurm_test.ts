/**
 * scripts/ensure_slurm.sh and `make test`'s use of it. The script looks up
 * only the Slurm and MUNGE programs, `id` and `apt-get` on PATH, so each case
 * runs it with a PATH holding just the fakes that case needs (no real
 * slurmctld, munged, apt-get or deno on it): the machine's own packages are
 * never touched. As test/setup/ensure_chromium_test.ts does for Chromium.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;
const SCRIPT = join(ROOT, "scripts", "ensure_slurm.sh");
const PROGRAMS = ["slurmctld", "slurmd", "sbatch", "munged"];

interface Machine {
  dir: string;
  bin: string;
  aptLog: string;
}

async function script(path: string, body: string): Promise<void> {
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}\n`);
  await Deno.chmod(path, 0o755);
}

/**
 * A temp folder with a PATH dir holding a fake `id`, the given Slurm
 * programs, and (when asked) an `apt-get` that logs its calls and, on
 * `install`, puts every Slurm program on that PATH, as the packages do.
 */
async function machine(opts: { uid: number; apt: boolean; has?: string[] }): Promise<Machine> {
  const dir = await Deno.makeTempDir({ prefix: "execret-slurm-setup-" });
  const bin = join(dir, "bin");
  await Deno.mkdir(bin);
  const m = { dir, bin, aptLog: join(dir, "apt.log") };
  await script(join(bin, "id"), `[ "$1" = -u ] && echo ${opts.uid}`);
  for (const p of opts.has ?? []) await script(join(bin, p), "exit 0");
  if (opts.apt) {
    const installs = PROGRAMS.map((p) =>
      `printf '#!/bin/sh\\n' > "${bin}/${p}"; /bin/chmod +x "${bin}/${p}"`
    ).join("; ");
    await script(
      join(bin, "apt-get"),
      `echo "DEBIAN_FRONTEND=\${DEBIAN_FRONTEND:-} $*" >> "${m.aptLog}"
       if [ "$1" = install ]; then ${installs}; fi`,
    );
  }
  return m;
}

/** Run `cmd args` with only PATH set (plus `extra`). */
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
    env: { PATH: m.bin, ...extra },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, lines: text.split("\n").filter((l) => l !== "") };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("ensure_slurm: Slurm and MUNGE present is a silent pass", async () => {
  const m = await machine({ uid: 0, apt: true, has: PROGRAMS });
  assertEquals(await run(m, "/bin/sh", [SCRIPT]), { code: 0, lines: [] });
  ok(!(await exists(m.aptLog)), "apt-get was called");
  await Deno.remove(m.dir, { recursive: true });
});

for (const [name, uid, apt] of [["not root", 1000, true], ["no apt-get", 0, false]] as const) {
  Deno.test(`ensure_slurm: missing and ${name} stops with one line`, async () => {
    const m = await machine({ uid, apt });
    const { code, lines } = await run(m, "/bin/sh", [SCRIPT]);
    assertEquals(code, 1);
    assertEquals(lines.length, 1, lines.join("\n"));
    ok(lines[0].startsWith("make test needs Slurm and MUNGE"), lines[0]);
    ok(lines[0].includes("(missing: slurmctld slurmd sbatch munged)"), lines[0]);
    ok(lines[0].includes("install the slurm-wlm and munge packages"), lines[0]);
    ok(!(await exists(m.aptLog)), "apt-get was called");
    await Deno.remove(m.dir, { recursive: true });
  });
}

Deno.test("ensure_slurm: one program missing is named alone", async () => {
  const m = await machine({ uid: 1000, apt: false, has: ["slurmctld", "slurmd", "sbatch"] });
  const { code, lines } = await run(m, "/bin/sh", [SCRIPT]);
  assertEquals(code, 1);
  ok(lines[0]?.includes("(missing: munged)"), lines.join("\n"));
  await Deno.remove(m.dir, { recursive: true });
});

Deno.test("ensure_slurm: missing, as root with apt-get, installs slurm-wlm and munge", async () => {
  const m = await machine({ uid: 0, apt: true, has: ["sbatch"] });
  const { code, lines } = await run(m, "/bin/sh", [SCRIPT]);
  assertEquals(code, 0, lines.join("\n"));
  assertEquals(lines, [
    "Slurm missing (slurmctld slurmd munged): installing Debian's slurm-wlm and munge packages (apt-get)",
  ]);
  assertEquals((await Deno.readTextFile(m.aptLog)).trim().split("\n"), [
    "DEBIAN_FRONTEND= update -qq",
    "DEBIAN_FRONTEND=noninteractive install -y -qq slurm-wlm munge",
  ]);
  for (const p of PROGRAMS) ok(await exists(join(m.bin, p)), p);
  await Deno.remove(m.dir, { recursive: true });
});

Deno.test("ensure_slurm: apt-get that leaves a program missing fails with one line", async () => {
  const m = await machine({ uid: 0, apt: true });
  // An apt-get that installs nothing.
  await script(join(m.bin, "apt-get"), `echo "$*" >> "${m.aptLog}"`);
  const { code, lines } = await run(m, "/bin/sh", [SCRIPT]);
  assertEquals(code, 1);
  assertEquals(lines.length, 2, lines.join("\n"));
  ok(lines[1].includes("slurmctld slurmd sbatch munged is still not on PATH"), lines[1]);
  await Deno.remove(m.dir, { recursive: true });
});

Deno.test("make test: missing Slurm that cannot be installed runs nothing", async () => {
  const m = await machine({ uid: 1000, apt: false });
  // Chromium is there (scripts/ensure_chromium.sh passes), Slurm is not.
  const chromium = join(m.dir, "chromium");
  await script(chromium, "exit 0");
  // Every deno call the Makefile would make goes to this fake, which leaves a mark.
  const marker = join(m.dir, "deno-ran");
  const deno = join(m.dir, "deno");
  await script(deno, `echo "$*" >> "${marker}"`);
  const make = new TextDecoder().decode(
    (await new Deno.Command("/bin/sh", { args: ["-c", "command -v make"] }).output()).stdout,
  ).trim();
  ok(make, "make not found");
  const { code, lines } = await run(m, make, ["--no-print-directory", "test", `DENO=${deno}`], {
    EXECRET_CHROMIUM: chromium,
  });
  ok(code !== 0, "make test passed without Slurm");
  // Make adds its own "make: *** [...] Error 1"; besides that, only the script's line.
  const said = lines.filter((l) => !l.startsWith("make: ***"));
  assertEquals(said.length, 1, lines.join("\n"));
  ok(said[0].startsWith("make test needs Slurm and MUNGE"), said[0]);
  ok(!(await exists(marker)), `deno ran: ${await Deno.readTextFile(marker).catch(() => "")}`);
  await Deno.remove(m.dir, { recursive: true });
});
