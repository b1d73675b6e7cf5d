import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { alice, bob, sampleInfo } from "../test/spec-fe.ts";
import { resetUserStore, USER_STORAGE_KEY, useUserStore } from "./user-store.ts";

beforeEach(() => resetUserStore());
afterEach(() => vi.restoreAllMocks());

function stored(): unknown {
  return JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? "null");
}

describe("user store", () => {
  it("persists exactly token, actors, methodInformations and currentActor under user-storage", () => {
    const info = sampleInfo();
    useUserStore.getState().setToken("t");
    useUserStore.getState().applyAccountInfo(info.actors, info.methodInformation);

    expect(stored()).toEqual({
      state: {
        token: "t",
        actors: info.actors,
        methodInformations: info.methodInformation,
        currentActor: alice.id,
      },
      version: 0,
    });
  });

  it("clears currentActor when the token is set to null", () => {
    useUserStore.setState({ token: "t", currentActor: bob.id });

    useUserStore.getState().setToken(null);

    expect(useUserStore.getState()).toMatchObject({ token: null, currentActor: null });
  });

  it("keeps currentActor when a new token is set", () => {
    useUserStore.setState({ token: "t", currentActor: bob.id });

    useUserStore.getState().setToken("u");

    expect(useUserStore.getState().currentActor).toBe(bob.id);
  });

  it("replaces actors and methods with the info answer and keeps a current actor still listed", () => {
    useUserStore.setState({ actors: [alice], currentActor: bob.id });

    useUserStore.getState().applyAccountInfo([alice, bob], []);

    expect(useUserStore.getState()).toMatchObject({
      actors: [alice, bob],
      methodInformations: [],
      currentActor: bob.id,
    });
  });

  it("picks the first actor when none is current or the current one is gone", () => {
    useUserStore.getState().applyAccountInfo([bob, alice], []);
    expect(useUserStore.getState().currentActor).toBe(bob.id);

    useUserStore.getState().applyAccountInfo([alice], []);
    expect(useUserStore.getState().currentActor).toBe(alice.id);

    useUserStore.getState().applyAccountInfo([], []);
    expect(useUserStore.getState().currentActor).toBeNull();
  });

  it("restores the persisted state on rehydration", async () => {
    localStorage.setItem(
      USER_STORAGE_KEY,
      JSON.stringify({
        state: { token: "x", actors: [alice], methodInformations: [], currentActor: alice.id },
        version: 0,
      }),
    );

    await useUserStore.persist.rehydrate();

    expect(useUserStore.getState()).toMatchObject({ token: "x", currentActor: alice.id });
  });

  it("starts signed out, with one warning, when the stored state does not have the expected shape", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    localStorage.setItem(
      USER_STORAGE_KEY,
      JSON.stringify({
        state: {
          token: "x",
          actors: { not: "a list" },
          methodInformations: [],
          currentActor: null,
        },
        version: 0,
      }),
    );

    await useUserStore.persist.rehydrate();

    expect(useUserStore.getState()).toMatchObject({ token: null, actors: [], currentActor: null });
    expect(warn).toHaveBeenCalledExactlyOnceWith(
      "user-storage was not understood; starting signed out",
    );
  });
});
