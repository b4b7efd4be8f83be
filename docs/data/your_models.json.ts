import { yourModelsData } from "../../loaders/your_models.ts";
import { writeAll } from "../../loaders/stdout.ts";
await writeAll(new TextEncoder().encode(JSON.stringify(await yourModelsData())));
