// Shared by every console test file (vitest project "console", jsdom).
import "@testing-library/jest-dom/vitest";
// The stream store keeps its messages in IndexedDB, which jsdom lacks.
import "fake-indexeddb/auto";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => {
  cleanup();
  localStorage.clear();
});
