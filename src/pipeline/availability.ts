import { invocationFor } from "../embed/invocations.ts";
import { missingRequirements } from "../embed/provider_registry.ts";
import { ALL_RELEASED } from "../release/bundle_source.ts";

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
    // The release's saved vectors need nothing but the release itself.
    if (config === ALL_RELEASED) continue;
    const needs = missingRequirements(await invocationFor(config), env);
    if (needs.length > 0) out.push({ config, needs });
  }
  return out;
}
