// The SQL console's tables: columns and total size, read at build time (src/site/site_schema.ts).
import { siteSchema } from "../../src/site/site_schema.ts";
import { writeAll } from "../../src/site/stdout.ts";
await writeAll(new TextEncoder().encode(JSON.stringify(await siteSchema())));
