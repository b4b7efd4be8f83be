// A page cell of a release run: the kit's number, the released one beneath
// it, and a marker when they differ beyond the released precision. What the
// cell says (text, class, marker, tooltip) comes from cellView in
// src/site/report/paper_comparison_view.ts; this only builds the elements.

const STYLE_ID = "release-cell-style";

function ensureStyle() {
  if (document.getElementById(STYLE_ID)) return;
  const style = document.createElement("style");
  style.id = STYLE_ID;
  style.textContent = `
.release-cell .released { display: block; font-size: 0.8em; color: var(--theme-foreground-muted); }
.release-cell .marker { display: block; font-size: 0.8em; }
.release-cell.flagged { background: #ffe3dc; outline: 2px solid #d62728; }
.release-cell.flagged .marker { color: #b0151b; font-weight: 600; }
.release-cell.kit-own .marker { color: #7a5a00; font-style: italic; }
.release-count.none { color: #2a7a2a; }
.release-count.some { color: #b0151b; font-weight: 600; }
`;
  document.head.append(style);
}

/** The cell for a kit text and a cellView (or the text alone when the release has no such number). */
export function releaseCell(kitText, view) {
  if (!view) return kitText;
  ensureStyle();
  const cell = document.createElement("span");
  cell.className = `release-cell ${view.className}`;
  cell.title = view.title;
  const kit = document.createElement("span");
  kit.className = "kit";
  kit.textContent = kitText;
  const released = document.createElement("span");
  released.className = "released";
  released.textContent = view.released;
  cell.append(kit, released);
  if (view.marker) {
    const marker = document.createElement("span");
    marker.className = "marker";
    marker.textContent = view.marker;
    cell.append(marker);
  }
  return cell;
}

/** The count line at the top of a page ("0 cells differ from the release"). */
export function releaseCount(n, text, testid) {
  ensureStyle();
  const p = document.createElement("p");
  p.className = `release-count ${n === 0 ? "none" : "some"}`;
  p.dataset.testid = testid;
  p.textContent = text;
  return p;
}
