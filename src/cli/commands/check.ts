import { type Command, UserError } from "../command.ts";

/** `execret check`: audit a finished run's integrity. */
export const checkCommand: Command = {
  name: "check",
  summary: "Audit a finished run's integrity",
  help: `usage: execret check [options]

Audit a finished run's integrity. Not implemented yet.`,
  run() {
    return Promise.reject(new UserError("not implemented yet"));
  },
};
