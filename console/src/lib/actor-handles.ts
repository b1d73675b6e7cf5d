// `@preferredUsername@host` of actors this browser has seen a document of (a lookup, a created
// actor, a server's `actor_info`), kept across reloads. cattle_grid's account info names actors
// only by id and display name, so this is where the console learns its own actors' handles.
import { useEffect } from "react";
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import { callFe } from "./fe-client.ts";
import { safeLocalStorage } from "./safe-local-storage.ts";
import type { LookupRequest, LookupResult } from "./wire-types.ts";

export const ACTOR_HANDLES_KEY = "corral-actor-handles";
/** Beyond this many, the oldest learned handles are forgotten. */
const MAX_HANDLES = 500;

type HandlesState = {
  handles: Readonly<Record<string, string>>;
  learn: (id: string, handle: string) => void;
};

export const useActorHandles = create<HandlesState>()(
  persist(
    (set) => ({
      handles: {},
      learn: (id, handle) =>
        set((state) => {
          if (state.handles[id] === handle) return state;
          const entries = Object.entries(state.handles).filter(([key]) => key !== id);
          return { handles: Object.fromEntries([...entries, [id, handle]].slice(-MAX_HANDLES)) };
        }),
    }),
    {
      name: ACTOR_HANDLES_KEY,
      storage: createJSONStorage(safeLocalStorage),
      partialize: ({ handles }) => ({ handles }),
    },
  ),
);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `@name@host` from a name (`alice`, `@alice`, `alice@host`, `acct:alice@host`) and the id's host. */
export function formatHandle(name: string, id: string): string | null {
  const bare = name.replace(/^acct:/, "").replace(/^@/, "");
  if (bare === "") return null;
  if (bare.includes("@")) return `@${bare}`;
  try {
    return `@${bare}@${new URL(id).host}`;
  } catch {
    return null;
  }
}

/**
 * The handle an actor document states: its `preferredUsername`, else the user part of an
 * `acct:` URI among `identifiers` / `alsoKnownAs` (cattle_grid leaves out preferredUsername when
 * its origin has a port), always with the host of the id (port included).
 */
export function handleOfDocument(document: unknown): { id: string; handle: string } | null {
  if (!isObject(document) || typeof document.id !== "string") return null;
  const id = document.id;
  if (typeof document.preferredUsername === "string" && document.preferredUsername !== "") {
    const handle = formatHandle(document.preferredUsername.replace(/@.*$/, ""), id);
    return handle ? { id, handle } : null;
  }
  for (const key of ["identifiers", "alsoKnownAs"]) {
    const list = document[key];
    const acct = Array.isArray(list)
      ? list.find((item): item is string => typeof item === "string" && item.startsWith("acct:"))
      : undefined;
    const user = acct && /^acct:([^@]+)@/.exec(acct)?.[1];
    const handle = user ? formatHandle(user, id) : null;
    if (handle) return { id, handle };
  }
  return null;
}

/** Keeps the handle of an actor document, when it states one. */
export function learnFromDocument(document: unknown): void {
  const found = handleOfDocument(document);
  if (found) useActorHandles.getState().learn(found.id, found.handle);
}

// Actors asked about in this page's life: one lookup per actor at most, even when it fails.
const asked = new Set<string>();
let queue: Promise<void> = Promise.resolve();

/**
 * Learns the handles of these actors of the account that are not known yet: one lookup of each
 * one's own document (as itself), one after another, once per page life; then remembered.
 */
export function useLearnHandles(actorIds: readonly (string | null)[]): void {
  const handles = useActorHandles((state) => state.handles);
  const missing = actorIds.filter(
    (id): id is string => id !== null && handles[id] === undefined && !asked.has(id),
  );
  const key = missing.join("\n");
  useEffect(() => {
    for (const id of key === "" ? [] : key.split("\n")) {
      if (asked.has(id)) continue;
      asked.add(id);
      const body: LookupRequest = { uri: id, actorId: id };
      queue = queue.then(() =>
        callFe<LookupResult>("/actor/lookup", { body }).then(
          (answer) => {
            if (answer.ok) learnFromDocument(answer.data.raw);
          },
          () => {}, // unnamed until a later page life asks again
        ),
      );
    }
  }, [key]);
}

/** For tests: forget what was asked and learned. */
export function resetActorHandles(): void {
  asked.clear();
  useActorHandles.setState({ handles: {} });
}
