// The SQL console's tables: columns and total size, read at build time (loaders/site_schema.ts).
import { siteSchema } from "../../loaders/site_schema.ts";
import { writeAll } from "../../loaders/stdout.ts";
await writeAll(new TextEncoder().encode(JSON.stringify(await siteSchema())));
