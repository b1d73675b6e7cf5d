import type { Locator, Page } from "playwright-core";

/**
 * Whether the element's top edge is on screen: below the fixed top bar and above the window's
 * bottom. A message's summary line is its top, so a message "in view" can be read.
 */
export async function isInView(locator: Locator): Promise<boolean> {
  // Not rendered at all (the list mounts only the rows near the view): not in view.
  if ((await locator.count()) === 0) return false;
  return locator.first().evaluate((element) => {
    const top = element.getBoundingClientRect().top;
    const bar =
      document.querySelector("header.MuiAppBar-positionFixed")?.getBoundingClientRect().bottom ?? 0;
    return top >= bar - 1 && top < window.innerHeight;
  });
}

/** The page's scroll position, to tell whether an arrival moved the view. */
export function scrollTop(page: Page): Promise<number> {
  return page.evaluate(() => window.scrollY);
}

/** Scrolls as a person does, with the wheel over the list (negative: up). */
export async function wheel(page: Page, deltaY: number): Promise<void> {
  await page.mouse.move(600, 500);
  await page.mouse.wheel(0, deltaY);
}
