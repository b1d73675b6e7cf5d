// Shared by every console test file (vitest project "console", jsdom).
import "@testing-library/jest-dom/vitest";
// The stream store keeps its messages in IndexedDB, which jsdom lacks.
import "fake-indexeddb/auto";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";
import { forgetCapabilities } from "../lib/server-capabilities.ts";
import { reachability } from "../lib/server-reachability.ts";

afterEach(() => {
  cleanup();
  localStorage.clear();
  // What one test's server offered or whether it answered is no other test's business.
  forgetCapabilities();
  reachability.setState({ away: null });
});
