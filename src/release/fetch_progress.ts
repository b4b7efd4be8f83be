import { etaSeconds } from "../io/progress.ts";

/**
 * Progress of a bundle download in files and bytes. A bundle's total size is
 * unknown until each response's Content-Length arrives, so the line counts
 * files done/total, bytes fetched and the rate, and gives an ETA for the file
 * in flight. Same cadence as src/io/progress.ts: redraw on a terminal, a
 * plain line every `EXECRET_PROGRESS_SECONDS` (default 5) otherwise.
 */
export interface FetchProgress {
  /** A file starts: its path, bytes already held (resume) and full size if known. */
  file(path: string, offset: number, total: number | undefined): void;
  /** `n` more bytes fetched. */
  bytes(n: number): void;
  /** One more file verified (downloaded or already present). */
  fileDone(): void;
  /** Print the final line. */
  done(note?: string): void;
}

/** Start a download progress display over `files` files. */
export function fetchProgress(stage: string, files: number, quiet: boolean): FetchProgress {
  quiet ||= Deno.env.get("EXECRET_QUIET") === "1";
  const tty = !quiet && Deno.stderr.isTerminal();
  const interval = Number(Deno.env.get("EXECRET_PROGRESS_SECONDS") ?? 5) * 1000;
  const start = performance.now();
  let filesDone = 0;
  let fetched = 0;
  let current = "";
  let fileAt = 0;
  let fileTotal: number | undefined;
  let fileStart = start;
  let fileFetched = 0;
  let last = 0;
  const enc = new TextEncoder();
  const line = () => {
    const now = performance.now();
    const secs = (now - start) / 1000;
    let text = `${stage}: ${filesDone}/${files} files, ${fmtBytes(fetched)} fetched at ` +
      `${fmtBytes(secs > 0 ? fetched / secs : 0)}/s, ${secs.toFixed(1)} s`;
    if (current) {
      text += ` · ${current} ${fmtBytes(fileAt)}` +
        (fileTotal === undefined ? "" : `/${fmtBytes(fileTotal)}`);
      const fileSecs = (now - fileStart) / 1000;
      // ETA from this response's own rate, over what it still has to send.
      const eta = fileTotal === undefined ? 0 : etaSeconds(
        fileFetched,
        fileFetched + fileTotal - fileAt,
        fileSecs,
      );
      if (eta > 0) text += `, ETA ${fmtSecs(eta)}`;
    }
    return text;
  };
  const emit = (final: boolean, note = "") => {
    if (quiet) return;
    const text = line() + (note ? ` — ${note}` : "");
    if (tty) Deno.stderr.writeSync(enc.encode(`\r\x1b[2K${text}${final ? "\n" : ""}`));
    else console.error(text);
  };
  const maybeEmit = () => {
    const now = performance.now();
    if (now - last >= (tty ? 100 : interval)) {
      last = now;
      emit(false);
    }
  };
  return {
    file(path, offset, total) {
      current = path;
      fileAt = offset;
      fileTotal = total;
      fileStart = performance.now();
      fileFetched = 0;
      maybeEmit();
    },
    bytes(n) {
      fetched += n;
      fileAt += n;
      fileFetched += n;
      maybeEmit();
    },
    fileDone() {
      filesDone++;
      current = "";
      maybeEmit();
    },
    done(note) {
      current = "";
      emit(true, note);
    },
  };
}

/** Bytes in binary units, one decimal: `512 B`, `1.5 MiB`. */
export function fmtBytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(n)} B` : `${n.toFixed(1)} ${units[i]}`;
}

function fmtSecs(s: number): string {
  if (s < 90) return `${s.toFixed(0)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}
