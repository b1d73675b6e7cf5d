import { createElement, lazy, type ComponentType } from "react";

export type LazyPage = ComponentType & { preload: () => Promise<unknown> };

const pages: LazyPage[] = [];

/**
 * A screen loaded in its own chunk on first use, so the first load carries only what the first
 * paint needs. The layout's Suspense shows the wait; once loaded (or preloaded) the screen renders
 * at once, without suspending again.
 */
export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const preload = () => {
    // A failed load is not remembered, so the next navigation tries again.
    loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const Suspending = lazy(() => preload().then((component) => ({ default: component })));
  function Page() {
    return createElement(loaded ?? Suspending);
  }
  const page = Object.assign(Page, { preload });
  pages.push(page);
  return page;
}

/** Loads every lazy screen: after the first paint in the browser, before rendering in tests. */
export function preloadPages(): Promise<unknown> {
  return Promise.all(pages.map((page) => page.preload()));
}
