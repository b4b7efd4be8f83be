import { type Command, UserError } from "../command.ts";

/** `execret score`: rank the pool for every embedded config into rankings.arrow. */
export const scoreCommand: Command = {
  name: "score",
  summary: "Rank the pool for every embedded config into rankings.arrow",
  help: `usage: execret score [options]

Rank the pool for every embedded config into rankings.arrow. Not implemented yet.`,
  run() {
    return Promise.reject(new UserError("not implemented yet"));
  },
};
