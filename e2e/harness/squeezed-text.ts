import type { Page } from "playwright-core";

/**
 * Text nodes a narrow column squeezed into about one character per line: each node of four or
 * more characters must average at least four characters per line it occupies
 * (docs/console-guide.md#layout: at 390 px every page stays readable).
 */
export function squeezedTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const offenders: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? "").trim();
      if (text.length < 4) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
      const lines = new Set(rects.map((rect) => Math.round(rect.top))).size;
      if (lines > 1 && text.length / lines < 4)
        offenders.push(`"${text.slice(0, 40)}" on ${lines} lines`);
    }
    return offenders;
  });
}
