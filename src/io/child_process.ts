/** Helpers shared by the slots that run their worker as a child process. */

/** Call `onLine` with each line a child writes to `stream`; resolves when the stream ends. */
export async function eachLine(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
): Promise<void> {
  let buffer = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      onLine(line);
    }
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc; 0 where that cannot be read. */
export function processCpuSeconds(pid: number | "self"): number {
  try {
    // utime and stime, in clock ticks (100 per second on Linux), after the command name.
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** SIGKILL a child; one already gone is fine. */
export function killChild(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGKILL");
  } catch {
    // already gone
  }
}
