import { UserError } from "../cli/command.ts";

/** `execret bench stats`: not implemented yet. */
export function benchStats(_args: string[]): Promise<number> {
  return Promise.reject(new UserError("bench stats is not implemented yet"));
}
