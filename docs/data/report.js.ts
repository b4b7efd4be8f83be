// The pages' helpers (src/site/report/), bundled into one browser module; pages load it with
// `await import(await FileAttachment("./data/report.js").url())` because Framework 1.13
// cannot `import` a loader's output or a module outside its root.
import { bundleReportModule } from "../../src/site/report_bundle.ts";
import { writeAll } from "../../src/site/stdout.ts";
await writeAll(new TextEncoder().encode(await bundleReportModule()));
