import { runInfo } from "../../loaders/run_info.ts";
import { writeAll } from "../../loaders/stdout.ts";
await writeAll(new TextEncoder().encode(JSON.stringify(await runInfo())));
