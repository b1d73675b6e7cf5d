import type { ReactNode } from "react";
import { SignedOutNotice } from "../components/signed-out/index.ts";
import { useUserStore } from "../lib/user-store.ts";

/**
 * Screens that act as an actor (Lookup, Perform) wait for a current actor with 'Loading...';
 * signed out there is none to wait for, so they say how to sign in instead.
 */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const signedIn = useUserStore((state) => state.token !== null);
  return signedIn ? children : <SignedOutNotice />;
}
