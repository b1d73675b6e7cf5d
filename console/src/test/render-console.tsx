// Renders the whole console (providers with the error funnel, layout, routes) in memory at a path, as
// main.tsx does in the browser, and tells tests where the console went.
import { render } from "@testing-library/react";
import { MemoryRouter, useLocation, type RouteObject } from "react-router";
import { Providers } from "../app/providers.tsx";
import { preloadPages } from "../app/lazy-page.tsx";
import { ConsoleRoutes, routes } from "../app/router.tsx";

// The screens the browser loads lazily are loaded before any test renders, so a screen is there
// on the first render, as once the browser has loaded its chunk (e2e/ covers the loading itself).
await preloadPages();

export function renderConsole(path: string, table: RouteObject[] = routes) {
  const seen = { path };
  function RecordLocation() {
    const location = useLocation();
    seen.path = location.pathname + location.search;
    return null;
  }
  const view = render(
    <Providers>
      <MemoryRouter initialEntries={[path]}>
        <ConsoleRoutes table={table} />
        <RecordLocation />
      </MemoryRouter>
    </Providers>,
  );
  /** Where the console is now, e.g. "/lookup?uri=…". */
  return { ...view, currentPath: () => seen.path };
}
