/**
 * Progress for long stages: items done/total, rate and ETA. On a terminal it
 * redraws one line on stderr; otherwise (CI, logs, pipes) it prints a plain
 * line at most every few seconds, so logs stay readable.
 */
export interface Progress {
  /** Mark `n` more items done. */
  tick(n?: number): void;
  /** Change the total when it becomes known late. */
  setTotal(total: number): void;
  /** Print the final line. */
  done(note?: string): void;
}

/** Options for {@link progress}. */
export interface ProgressOptions {
  /**
   * Seconds between plain lines when not a terminal (default: the
   * `EXECRET_PROGRESS_SECONDS` env var, else 5).
   */
  interval?: number;
  /** Print nothing at all (tests, `--quiet`). */
  quiet?: boolean;
}

/** Start a progress display for `stage` over `total` items. */
export function progress(stage: string, total: number, options: ProgressOptions = {}): Progress {
  const quiet = options.quiet ?? Deno.env.get("EXECRET_QUIET") === "1";
  const tty = !quiet && Deno.stderr.isTerminal();
  const interval = (options.interval ?? Number(Deno.env.get("EXECRET_PROGRESS_SECONDS") ?? 5)) *
    1000;
  const start = performance.now();
  let done = 0;
  let last = 0;
  const enc = new TextEncoder();
  const line = () => {
    const secs = (performance.now() - start) / 1000;
    const rate = secs > 0 ? done / secs : 0;
    const eta = etaSeconds(done, total, secs);
    const pct = total > 0 ? ((100 * done) / total).toFixed(1) : "-";
    return `${stage}: ${done}/${total} (${pct}%) ${fmtRate(rate)}/s, ${secs.toFixed(1)} s` +
      (eta > 0 ? `, ETA ${fmtSecs(eta)}` : "");
  };
  const emit = (final: boolean, note = "") => {
    if (quiet) return;
    const text = line() + (note ? ` — ${note}` : "");
    if (tty) Deno.stderr.writeSync(enc.encode(`\r\x1b[2K${text}${final ? "\n" : ""}`));
    else console.error(text);
  };
  return {
    tick(n = 1) {
      done += n;
      const now = performance.now();
      if (now - last >= (tty ? 100 : interval)) {
        last = now;
        emit(false);
      }
    },
    setTotal(t) {
      total = t;
    },
    done(note) {
      emit(true, note);
    },
  };
}

/**
 * Seconds left at the rate so far, or 0 (no ETA shown) before 1% is done: a
 * stage's first items include its start-up (workers booting, models
 * loading), so an early rate promises hours for a job of seconds.
 */
export function etaSeconds(done: number, total: number, secs: number): number {
  if (secs <= 0 || done <= 0 || total <= done || done * 100 < total) return 0;
  return (total - done) / (done / secs);
}

function fmtRate(rate: number): string {
  return rate >= 100 ? rate.toFixed(0) : rate.toFixed(1);
}

function fmtSecs(s: number): string {
  if (s < 90) return `${s.toFixed(0)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}
