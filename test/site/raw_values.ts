import type { Page } from "playwright-core";

/** A value printed as is instead of formatted: the words JavaScript prints for missing numbers. */
export const RAW_VALUE = /\b(null|undefined|NaN)\b/;

/**
 * Lines of the page's visible text (`document.body.innerText`) holding a raw
 * `null`, `undefined` or `NaN` as a word. Text the reader types or edits is
 * not the page's output, and SQL there may rightly say `IS NULL`: textareas,
 * inputs, selects, contenteditable elements and CodeMirror editors are hidden
 * (`display: none`) while the text is read, so innerText leaves them out.
 */
export async function rawValueLines(page: Page): Promise<string[]> {
  // A string, evaluated in the page (this file is type-checked without the DOM).
  const text = await page.evaluate(`(() => {
    const style = document.createElement("style");
    style.textContent =
      "textarea, input, select, [contenteditable], .cm-editor { display: none !important; }";
    document.head.append(style);
    try {
      return document.body.innerText;
    } finally {
      style.remove();
    }
  })()`) as string;
  return text.split("\n").filter((line) => RAW_VALUE.test(line));
}
