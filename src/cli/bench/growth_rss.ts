/**
 * Resident memory of a process and all its descendants, from /proc (Linux).
 * Pyodide and embedding workers are child processes, so a stage's memory is
 * the sum over its tree, not the RSS of the process that started it.
 */

const PAGE = 4096;

/** Parent pid of every process now running (from /proc/<pid>/stat). */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of Deno.readDirSync("/proc")) {
    const pid = Number(entry.name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      // The command name (field 2) may hold spaces and parens: read after its last ")".
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(pid, Number(rest[1]));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return out;
}

/** The pid and every descendant of it. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents()) {
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const tree: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/**
 * Summed resident set size in bytes of `root` and its descendants (0 once
 * it has ended). Shared pages (the Deno binary of each worker) count once
 * per process, so this errs high, never low.
 */
export function treeRss(root: number): number {
  let bytes = 0;
  for (const pid of processTree(root)) {
    try {
      const statm = Deno.readTextFileSync(`/proc/${pid}/statm`).split(" ");
      bytes += Number(statm[1]) * PAGE;
    } catch {
      // Ended meanwhile.
    }
  }
  return bytes;
}

/**
 * Poll {@link treeRss} of `pid` every `everyMs` until `done` settles; resolve
 * to the largest value seen, in bytes.
 */
export async function peakTreeRss(
  pid: number,
  done: Promise<unknown>,
  everyMs = 100,
): Promise<number> {
  let peak = 0;
  let finished = false;
  done.finally(() => finished = true);
  while (!finished) {
    peak = Math.max(peak, treeRss(pid));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      done.catch(() => {}),
      new Promise((r) => timer = setTimeout(r, everyMs)),
    ]);
    clearTimeout(timer);
  }
  return peak;
}
