// The pages' helpers (src/site/report/), bundled into one browser module; pages load it with
// `await import(await FileAttachment("./data/report.js").url())` because Framework 1.13
// cannot `import` a loader's output or a module outside its root.
import { writeSiteData } from "../../src/site/site_data.ts";
await writeSiteData("report.js");
