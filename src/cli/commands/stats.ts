import { type Command, UserError } from "../command.ts";

/** `execret stats`: per-query metrics, bootstrap intervals and pairwise tests. */
export const statsCommand: Command = {
  name: "stats",
  summary: "Per-query metrics, bootstrap intervals and pairwise tests",
  help: `usage: execret stats [options]

Per-query metrics, bootstrap intervals and pairwise tests. Not implemented yet.`,
  run() {
    return Promise.reject(new UserError("not implemented yet"));
  },
};
