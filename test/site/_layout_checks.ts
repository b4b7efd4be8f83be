/**
 * What a reader at a given width cannot read: table header or cell text cut
 * off (its content wider than its box, which Inputs.table hides behind an
 * ellipsis), and chart labels drawn over each other. Each finding is one
 * line naming the page's element, so a failing test says what to fix.
 */
import type { Page } from "playwright-core";

/** The `data-testid` of the nearest ancestor that has one, for naming findings. */
const NEAREST_ID = `(el) => el.closest("[data-testid]")?.getAttribute("data-testid") ?? "table"`;

/**
 * Table header and body cells of `page` whose text is wider than the cell
 * shows (scrollWidth > clientWidth), as `<testid>: "<text>"`.
 */
export async function truncatedCells(page: Page): Promise<string[]> {
  return await page.evaluate(`(() => {
    const id = ${NEAREST_ID};
    const out = [];
    for (const el of document.querySelectorAll("main table th, main table td")) {
      if (el.offsetParent === null) continue; // not shown
      if (el.scrollWidth > el.clientWidth + 1) {
        out.push(id(el) + ": " + JSON.stringify(el.textContent.trim().slice(0, 60)));
      }
    }
    return out;
  })()`) as string[];
}

/**
 * Text labels of the charts in `scope` (SVG `text`, legends' swatch labels
 * included; rotated ones aside) whose boxes overlap by more than 2 px each way, as pairs
 * `<testid>: "<a>" over "<b>"`.
 */
export async function overlappingLabels(page: Page, scope = "main"): Promise<string[]> {
  return await page.evaluate(`(() => {
    const id = ${NEAREST_ID};
    const out = [];
    for (const figure of document.querySelectorAll(${JSON.stringify(scope)} + " figure, " + ${
    JSON.stringify(scope)
  } + " svg:not(figure svg)")) {
      const labels = [...figure.querySelectorAll("text, span")]
        .filter((el) => el.children.length === 0 && el.textContent.trim() !== "")
        // A rotated label's upright box overlaps its neighbour's whenever they are close,
        // though the glyphs do not: only upright labels are compared.
        .filter((el) => !/rotate/.test(el.closest("[transform*=rotate]")?.getAttribute("transform") ?? ""))
        // Labels a chart hid (Vega hides overlapping tick labels with opacity 0) are not drawn.
        .filter((el) => getComputedStyle(el).opacity !== "0" && el.getAttribute("opacity") !== "0")
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter((d) => d.box.width > 0 && d.box.height > 0);
      for (let i = 0; i < labels.length; i++) {
        for (let j = i + 1; j < labels.length; j++) {
          const a = labels[i].box, b = labels[j].box;
          const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (x > 2 && y > 2) {
            out.push(id(figure) + ": " + JSON.stringify(labels[i].el.textContent.trim()) +
              " over " + JSON.stringify(labels[j].el.textContent.trim()));
          }
        }
      }
    }
    return out;
  })()`) as string[];
}
