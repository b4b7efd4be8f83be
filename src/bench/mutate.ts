import { UserError } from "../cli/command.ts";

/** `execret bench mutate`: not implemented yet. */
export function benchMutate(_args: string[]): Promise<number> {
  return Promise.reject(new UserError("bench mutate is not implemented yet"));
}
