/**
 * Where the real-data tests get MBPP and HumanEval (real_task_sets.ts), each
 * case in a `deno` process of its own, since the helper fixes the shell's
 * source cache when it is loaded: the mirror first, else the cache the shell
 * names even after a test moves EXECRET_CACHE, else a download (verified,
 * then cached), and with none of them one line naming EXECRET_MIRROR.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { loadManifest } from "../../src/tasks/external.ts";
import { realTaskSetsFolder } from "./real_task_sets.ts";

const HELPER = new URL("./real_task_sets.ts", import.meta.url).href;

/** What the helper did in a fresh process: how each file came, or its error. */
interface Seen {
  folder?: string;
  via?: string[];
  error?: { name: string; message: string };
}

/**
 * Load the helper in a fresh process with `env` (nothing else of the
 * EXECRET_* kind), move EXECRET_CACHE to an empty folder as tests do, then
 * ask for both files.
 */
async function inFreshProcess(env: Record<string, string>): Promise<Seen> {
  const moved = await Deno.makeTempDir();
  const script = `
    const { realTaskSet, realTaskSetsFolder } = await import(${JSON.stringify(HELPER)});
    Deno.env.set("EXECRET_CACHE", ${JSON.stringify(moved)});
    let seen;
    try {
      const via = [(await realTaskSet("mbpp")).via, (await realTaskSet("humaneval")).via];
      seen = { folder: await realTaskSetsFolder(), via };
    } catch (e) {
      seen = { error: { name: e.name, message: e.message } };
    }
    console.log(JSON.stringify(seen));
  `;
  const kept = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([k]) => !k.startsWith("EXECRET_")),
  );
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--cached-only", script],
      env: { ...kept, ...env },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    ok(out.success, new TextDecoder().decode(out.stderr));
    return JSON.parse(stdout) as Seen;
  } finally {
    await Deno.remove(moved, { recursive: true });
  }
}

/**
 * A loopback server for the real files (from `folder`), or answering 404 to
 * everything when `folder` is null; the URL variables that point the kit's
 * downloads at it.
 */
function serve(folder: string | null) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const name = new URL(req.url).pathname.slice(1);
    if (folder === null) return new Response("no such file", { status: 404 });
    return new Response(await Deno.readFile(join(folder, name)));
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return {
    server,
    env: {
      EXECRET_MBPP_URL: `${base}/mbpp.jsonl`,
      EXECRET_HUMANEVAL_URL: `${base}/HumanEval.jsonl.gz`,
    },
  };
}

/** A temporary folder holding copies of both real files. */
async function copyOfRealFiles(): Promise<string> {
  const from = await realTaskSetsFolder();
  const dir = await Deno.makeTempDir();
  for (const spec of Object.values(await loadManifest())) {
    await Deno.copyFile(join(from, spec.file), join(dir, spec.file));
  }
  return dir;
}

Deno.test("real task sets: none reachable is one line naming EXECRET_MIRROR", async () => {
  const empty = await Deno.makeTempDir();
  const { server, env } = serve(null);
  try {
    const seen = await inFreshProcess({ ...env, EXECRET_CACHE: empty });
    assertEquals(seen.error?.name, "SourceError");
    const message = seen.error!.message;
    ok(!message.includes("\n"), message);
    ok(message.includes("EXECRET_MIRROR"), message);
    ok(message.startsWith("mbpp.jsonl for a real-data test: "), message);
    ok(message.includes(join(empty, "sources")), `names the cache it looked in: ${message}`);
    ok(message.includes("HTTP 404"), `says why the download failed: ${message}`);
  } finally {
    await server.shutdown();
    await Deno.remove(empty, { recursive: true });
  }
});

Deno.test("real task sets: a mirror is read first, and its absence is named", async () => {
  const mirror = await copyOfRealFiles();
  const cache = await copyOfRealFiles(); // a cache that must not be consulted
  const { server, env } = serve(null);
  try {
    assertEquals(await inFreshProcess({ ...env, EXECRET_MIRROR: mirror, EXECRET_CACHE: cache }), {
      folder: mirror,
      via: ["mirror", "mirror"],
    });
    await Deno.remove(join(mirror, "HumanEval.jsonl.gz"));
    const seen = await inFreshProcess({ ...env, EXECRET_MIRROR: mirror, EXECRET_CACHE: cache });
    assertEquals(
      seen.error?.message,
      `HumanEval.jsonl.gz for a real-data test: ${join(mirror, "HumanEval.jsonl.gz")}: ` +
        `not found (mirror folder from EXECRET_MIRROR or --mirror)`,
    );
  } finally {
    await server.shutdown();
    await Deno.remove(mirror, { recursive: true });
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("real task sets: the shell's cache is found after a test moves EXECRET_CACHE", async () => {
  const shell = await Deno.makeTempDir();
  const { server, env } = serve(null); // a download would fail
  try {
    const files = await copyOfRealFiles();
    await Deno.rename(files, join(shell, "sources"));
    assertEquals(await inFreshProcess({ ...env, EXECRET_CACHE: shell }), {
      folder: join(shell, "sources"),
      via: ["cache", "cache"],
    });
  } finally {
    await server.shutdown();
    await Deno.remove(shell, { recursive: true });
  }
});

Deno.test("real task sets: with no mirror nor cache, downloaded, verified and cached", async () => {
  const served = await copyOfRealFiles();
  const shell = await Deno.makeTempDir();
  const { server, env } = serve(served);
  try {
    // The first ask downloads each file into the shell's cache; the folder
    // is asked after, and reads both from there.
    assertEquals(await inFreshProcess({ ...env, EXECRET_CACHE: shell }), {
      folder: join(shell, "sources"),
      via: ["download", "download"],
    });
    for (const name of ["mbpp.jsonl", "HumanEval.jsonl.gz"]) {
      assertEquals(
        await Deno.readFile(join(shell, "sources", name)),
        await Deno.readFile(join(served, name)),
      );
    }
    assertEquals(await inFreshProcess({ ...env, EXECRET_CACHE: shell }), {
      folder: join(shell, "sources"),
      via: ["cache", "cache"],
    });
  } finally {
    await server.shutdown();
    await Deno.remove(served, { recursive: true });
    await Deno.remove(shell, { recursive: true });
  }
});
