import { formatMoment } from "../../lib/format-moment.ts";
import { useCallback, useState } from "react";
import { useNavigate } from "react-router";
import { callFe, type FeError } from "../../lib/fe-client.ts";
import { useUserStore } from "../../lib/user-store.ts";
import type { SignInRequest, SignInResponse } from "../../lib/wire-types.ts";

export type SignInState = {
  signIn: (credentials: SignInRequest) => Promise<void>;
  pending: boolean;
  /** Why the server refused the last attempt, as a sentence; null when it did not. */
  refusal: string | null;
};

/**
 * Signs in and goes to "/". Any answer without a token is logged with console.log as exactly
 * "token is undefined" (docs/console-guide.md#sign-in); a refusal (wrong password, 422, 429) also shows
 * the server's reason, so a person knows whether to retype or to wait.
 */
export function useSignIn(): SignInState {
  const setToken = useUserStore((state) => state.setToken);
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const signIn = useCallback(
    async (credentials: SignInRequest) => {
      setPending(true);
      setRefusal(null);
      let token: unknown;
      try {
        const result = await callFe<SignInResponse>("/signin", {
          body: credentials,
          anonymous: true,
        });
        token = (result.data as Partial<SignInResponse> | null)?.token;
        if (!result.ok) setRefusal(describeRefusal(result));
      } catch (error) {
        console.warn(`sign-in failed: ${String(error)}`);
        setRefusal(`The server did not answer: ${String(error)}`);
        return;
      } finally {
        setPending(false);
      }
      if (typeof token !== "string") {
        console.log("token is undefined");
        return;
      }
      setToken(token);
      await navigate("/");
    },
    [setToken, navigate],
  );
  return { signIn, pending, refusal };
}

function describeRefusal(error: FeError): string {
  const detail = (error.data as { detail?: unknown } | null)?.detail;
  let reason = `Sign-in refused (HTTP ${error.status})`;
  if (typeof detail === "string") reason = detail;
  else if (Array.isArray(detail))
    reason = detail
      .map((item: { loc?: unknown[]; msg?: unknown }) => `${item.loc?.at(-1)}: ${item.msg}`)
      .join("; ");
  if (error.retryAfter === undefined) return reason;
  const at = formatMoment(Date.now() + error.retryAfter * 1000);
  return `${reason} (after ${at})`;
}
