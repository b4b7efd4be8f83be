import { writeAll } from "../../loaders/_stdout.ts";
import { auditStream } from "../../src/release/audit_stream.ts";
await writeAll(await auditStream());
