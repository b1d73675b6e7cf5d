import type { StateStorage } from "zustand/middleware";

/**
 * localStorage for small persisted stores that must never break the page: a full quota (about
 * 5 MB, shared with every key of the origin) or a blocked storage leaves the state in memory
 * only, with one warning per key.
 */
export function safeLocalStorage(): StateStorage {
  const warned = new Set<string>();
  return {
    getItem: (name) => {
      try {
        return localStorage.getItem(name);
      } catch {
        return null;
      }
    },
    setItem: (name, value) => {
      try {
        localStorage.setItem(name, value);
      } catch (failure) {
        if (warned.has(name)) return;
        warned.add(name);
        console.warn(`${name} could not be saved (${String(failure)}); kept until reload`);
      }
    },
    removeItem: (name) => {
      try {
        localStorage.removeItem(name);
      } catch {
        // Nothing was saved that could be removed.
      }
    },
  };
}
