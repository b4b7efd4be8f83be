// The published claims of the paper this kit reproduces — "ExecRetrieval"
// (arXiv 2609.01865), as the paper states them — shown beside the numbers a release
// run regenerates. Literals on purpose: they are what the paper states, not
// anything this kit computed, and they live here only.
export const PAPER_CLAIMS = {
  exec10: "1.00",
  exec1: "0.331",
  ownMisses: "91.5–99.4%",
  belowDistractor: "67–78%",
};
