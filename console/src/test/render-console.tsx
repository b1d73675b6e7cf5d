// Renders the whole console (layout, routes, providers) in memory at a path, as main.tsx does in
// the browser, and returns the router so tests can read where the console went.
import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, type RouteObject } from "react-router";
import { Providers } from "../app/providers.tsx";
import { routes } from "../app/router.tsx";

export function renderConsole(path: string, routeTable: RouteObject[] = routes) {
  const router = createMemoryRouter(routeTable, { initialEntries: [path] });
  const view = render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { router, ...view };
}

/** Where the router is now, e.g. "/lookup?uri=…". */
export function currentPath(router: ReturnType<typeof createMemoryRouter>): string {
  const { pathname, search } = router.state.location;
  return pathname + search;
}
