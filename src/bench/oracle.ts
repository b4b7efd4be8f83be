import { UserError } from "../cli/command.ts";

/** `execret bench oracle`: not implemented yet. */
export function benchOracle(_args: string[]): Promise<number> {
  return Promise.reject(new UserError("bench oracle is not implemented yet"));
}
