// The pages' helpers (src/report/), bundled into one browser module; pages load it with
// `await import(await FileAttachment("./data/report.js").url())` because Framework 1.13
// cannot `import` a loader's output or a module outside its root.
import { bundleReportModule } from "../../loaders/report_module.ts";
import { writeAll } from "../../loaders/stdout.ts";
await writeAll(new TextEncoder().encode(await bundleReportModule()));
