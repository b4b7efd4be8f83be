import { type Command, UserError } from "../command.ts";

/** `execret mutate`: generate single-edit buggy candidates into mutants.arrow. */
export const mutateCommand: Command = {
  name: "mutate",
  summary: "Generate single-edit buggy candidates into mutants.arrow",
  help: `usage: execret mutate [options]

Generate single-edit buggy candidates into mutants.arrow. Not implemented yet.`,
  run() {
    return Promise.reject(new UserError("not implemented yet"));
  },
};
