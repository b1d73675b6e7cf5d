import { createBrowserRouter, type RouteObject } from "react-router";
import { ErrorFallback } from "../components/error-boundary/index.ts";
import { InfoPage } from "../features/info/info-page.tsx";
import { LookupPage } from "../features/lookup/lookup-page.tsx";
import { PerformPage } from "../features/perform/perform-page.tsx";
import { SignInPage } from "../features/signin/sign-in-page.tsx";
import { StreamPage } from "../features/streams/index.ts";
import { Layout } from "./layout.tsx";

// Every screen of the console, all inside the layout (drawer + top bar + error boundary).
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    // Only reached when the layout itself fails; the pages have their own boundary in the layout.
    errorElement: <ErrorFallback />,
    children: [
      { path: "/", element: <InfoPage /> },
      { path: "/signin", element: <SignInPage /> },
      { path: "/lookup", element: <LookupPage /> }, // optional ?uri=
      { path: "/stream", element: <StreamPage /> }, // no streamType: 'You should not be here'
      { path: "/stream/:streamType", element: <StreamPage /> },
      { path: "/perform", element: <PerformPage /> },
    ],
  },
];

export function createConsoleRouter() {
  return createBrowserRouter(routes);
}
