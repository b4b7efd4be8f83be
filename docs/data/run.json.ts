import { runInfo } from "../../src/site/run_info.ts";
import { writeAll } from "../../src/site/stdout.ts";
await writeAll(new TextEncoder().encode(JSON.stringify(await runInfo())));
