import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import { readPersistedUser } from "./persisted-user.ts";
import type { Actor, MethodInformation } from "./wire-types.ts";

export type UserState = {
  token: string | null;
  actors: Actor[];
  methodInformations: MethodInformation[];
  /** The id of the actor Lookup and Perform act as. */
  currentActor: string | null;
};

type UserActions = {
  /** Setting null signs out, which also forgets the current actor. */
  setToken: (token: string | null) => void;
  setCurrentActor: (actorId: string | null) => void;
  /** The account info answer replaces the actors and methods held. */
  applyAccountInfo: (actors: Actor[], methodInformations: MethodInformation[]) => void;
  /** An actor deleted from here leaves the menu at once; another becomes current if it was. */
  forgetActor: (actorId: string) => void;
};

export const USER_STORAGE_KEY = "user-storage";

const signedOut: UserState = {
  token: null,
  actors: [],
  methodInformations: [],
  currentActor: null,
};

export const useUserStore = create<UserState & UserActions>()(
  persist(
    (set) => ({
      ...signedOut,
      setToken: (token) => set(token === null ? { token, currentActor: null } : { token }),
      setCurrentActor: (currentActor) => set({ currentActor }),
      applyAccountInfo: (actors, methodInformations) =>
        set((state) => ({
          actors,
          methodInformations,
          currentActor: pickCurrentActor(state.currentActor, actors),
        })),
      forgetActor: (actorId) =>
        set((state) => {
          const actors = state.actors.filter((actor) => actor.id !== actorId);
          return { actors, currentActor: pickCurrentActor(state.currentActor, actors) };
        }),
    }),
    {
      name: USER_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      // Exactly the four fields of the spec's persisted user state; actions are not state.
      partialize: ({ token, actors, methodInformations, currentActor }) => ({
        token,
        actors,
        methodInformations,
        currentActor,
      }),
      merge: (persisted, current) => {
        if (persisted === undefined) return current;
        const restored = readPersistedUser(persisted);
        if (restored === null) {
          console.warn(`${USER_STORAGE_KEY} was not understood; starting signed out`);
          return current;
        }
        return { ...current, ...restored };
      },
    },
  ),
);

/**
 * The spec leaves open what happens when info arrives without a usable current actor. Users
 * expect Lookup and Perform to work right after signing in, so the first actor is chosen when
 * none is set or the chosen one is no longer on the account.
 */
function pickCurrentActor(current: string | null, actors: Actor[]): string | null {
  if (current !== null && actors.some((actor) => actor.id === current)) return current;
  return actors[0]?.id ?? null;
}

/** Clears everything, for tests and for a fresh start. */
export function resetUserStore(): void {
  useUserStore.setState(signedOut);
}
