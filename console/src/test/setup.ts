// Shared by every console test file (vitest project "console", jsdom).
import "@testing-library/jest-dom/vitest";
// The stream store keeps its messages in IndexedDB, which jsdom lacks.
import "fake-indexeddb/auto";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";
import { forgetCapabilities } from "../lib/server-capabilities.ts";
import { reachability } from "../lib/server-reachability.ts";

// findBy… and waitFor give up after 15 s, not 1 s: in `npm test` these files run beside the
// server's (two workers on two cores), and a lazily loaded screen has taken over a second there,
// and more than 5 s on a loaded machine (the info page's first tree, in a fresh-clone CI run).
// They still return as soon as what they wait for is there; only a failing wait takes longer.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  // What one test's server offered or whether it answered is no other test's business.
  forgetCapabilities();
  reachability.setState({ away: null });
});
