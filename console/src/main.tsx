import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { Providers } from "./app/providers.tsx";
import { ConsoleRoutes } from "./app/router.tsx";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Providers>
      <BrowserRouter>
        <ConsoleRoutes />
      </BrowserRouter>
    </Providers>
  </StrictMode>,
);
