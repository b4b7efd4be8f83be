import { type Command, UserError } from "../command.ts";

/** `execret bench`: benchmarks of the pipeline's hot stages. */
export const benchCommand: Command = {
  name: "bench",
  summary: "Benchmarks of the pipeline's hot stages",
  help: `usage: execret bench [options]

Benchmarks of the pipeline's hot stages. Not implemented yet.`,
  run() {
    return Promise.reject(new UserError("not implemented yet"));
  },
};
