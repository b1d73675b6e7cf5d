import type { AccountInfo } from "../lib/wire-types.ts";
import { useUserStore } from "../lib/user-store.ts";
import { account, sampleInfo } from "./spec-fe.ts";

/** Puts the user store in the state a successful sign-in and info load leave behind. */
export function signIn(info: AccountInfo = sampleInfo(), currentActor = info.actors[0]?.id) {
  useUserStore.setState({
    token: account.token,
    actors: info.actors,
    methodInformations: info.methodInformation,
    currentActor: currentActor ?? null,
  });
}
