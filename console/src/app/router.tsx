import { useRoutes, type RouteObject } from "react-router";
import { InfoPage } from "../features/info/info-page.tsx";
import { SignInPage } from "../features/signin/sign-in-page.tsx";
import { Layout } from "./layout.tsx";
import { lazyPage } from "./lazy-page.tsx";
import { RequireSignIn } from "./require-sign-in.tsx";
import { UnknownPage } from "./unknown-page.tsx";

// Info and Sign In paint first; every other screen arrives in its own chunk (lazy-page.tsx).
const LookupPage = lazyPage(() =>
  import("../features/lookup/lookup-page.tsx").then((module) => module.LookupPage),
);
const PerformPage = lazyPage(() =>
  import("../features/perform/perform-page.tsx").then((module) => module.PerformPage),
);
const DeliveriesPage = lazyPage(() =>
  import("../features/deliveries/deliveries-page.tsx").then((module) => module.DeliveriesPage),
);
const HostPage = lazyPage(() =>
  import("../features/deliveries/host-page.tsx").then((module) => module.HostPage),
);
const RefusedPage = lazyPage(() =>
  import("../features/refused/refused-page.tsx").then((module) => module.RefusedPage),
);
const StreamPage = lazyPage(() =>
  import("../features/streams/stream-page.tsx").then((module) => module.StreamPage),
);
const AllStreamsPage = lazyPage(() =>
  import("../features/streams/stream-page.tsx").then((module) => module.AllStreamsPage),
);

// Every screen of the console, all inside the layout (drawer + top bar + error boundary).
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: "/", element: <InfoPage /> },
      { path: "/signin", element: <SignInPage /> },
      // optional ?uri=
      {
        path: "/lookup",
        element: (
          <RequireSignIn>
            <LookupPage />
          </RequireSignIn>
        ),
      },
      { path: "/stream", element: <StreamPage /> }, // no streamType: 'You should not be here'
      { path: "/stream/all", element: <AllStreamsPage /> }, // docs/console-guide.md#all: the three merged
      { path: "/stream/:streamType", element: <StreamPage /> },
      {
        path: "/perform",
        element: (
          <RequireSignIn>
            <PerformPage />
          </RequireSignIn>
        ),
      },
      { path: "/deliveries", element: <RequireSignIn children={<DeliveriesPage />} /> },
      { path: "/deliveries/:host", element: <RequireSignIn children={<HostPage />} /> },
      { path: "/refused", element: <RequireSignIn children={<RefusedPage />} /> },
      { path: "*", element: <UnknownPage /> }, // docs/console-guide.md#layout: the layout stays
    ],
  },
];

/**
 * Renders the route table under a BrowserRouter (or a MemoryRouter in tests). The console uses
 * no loaders or actions, and the declarative router keeps about 18 KB gzip of data-router code
 * out of the first load.
 */
export function ConsoleRoutes({ table = routes }: { table?: RouteObject[] }) {
  return useRoutes(table);
}
