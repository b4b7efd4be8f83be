import { type Command, UserError } from "../command.ts";

/** `execret tasks`: read task sources into out/tables/tasks.arrow (+ rejects). */
export const tasksCommand: Command = {
  name: "tasks",
  summary: "Read task sources into out/tables/tasks.arrow (+ rejects)",
  help: `usage: execret tasks [options]

Read task sources into out/tables/tasks.arrow (+ rejects). Not implemented yet.`,
  run() {
    return Promise.reject(new UserError("not implemented yet"));
  },
};
