import { yourModelsData } from "../../src/site/your_models_data.ts";
import { writeAll } from "../../src/site/stdout.ts";
await writeAll(new TextEncoder().encode(JSON.stringify(await yourModelsData())));
