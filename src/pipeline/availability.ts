import { invocationFor } from "../embed/invocations.ts";
import { missingRequirements } from "../embed/registry.ts";

/** A config that cannot run here, and what it lacks. */
export interface Unavailable {
  config: string;
  needs: string[];
}

/**
 * Configs of a profile whose API key, server URL or local model folder is
 * missing, checked before any work starts so a long run never fails at its
 * embedding stage for want of a key.
 */
export async function unavailableConfigs(
  configs: string[],
  env: Record<string, string | undefined> = Deno.env.toObject(),
): Promise<Unavailable[]> {
  const out: Unavailable[] = [];
  for (const config of configs) {
    const needs = missingRequirements(await invocationFor(config), env);
    if (needs.length > 0) out.push({ config, needs });
  }
  return out;
}
