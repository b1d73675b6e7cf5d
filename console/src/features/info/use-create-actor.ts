import { useCallback, useState } from "react";
import { learnFromDocument } from "../../lib/actor-handles.ts";
import { callFe, type FeResponse } from "../../lib/fe-client.ts";
import type { ActorDocument, CreateActorRequest } from "../../lib/wire-types.ts";

export type CreateActorState = {
  /** The last answer (the new actor's document or the error body), until dismissed. */
  result: FeResponse<ActorDocument> | null;
  /** True from the click until the answer and the refreshed info are in. */
  pending: boolean;
  /** What the last answer answered. */
  request: CreateActorRequest | null;
  create: (baseUrl: string, handle: string) => Promise<void>;
  dismiss: () => void;
};

/** Creates an actor, keeps the answer for the modal, then lets the caller refresh the info. */
export function useCreateActor(onCreated: () => Promise<void>): CreateActorState {
  const [result, setResult] = useState<FeResponse<ActorDocument> | null>(null);
  const [pending, setPending] = useState(false);
  const [request, setRequest] = useState<CreateActorRequest | null>(null);

  const create = useCallback(
    async (baseUrl: string, handle: string) => {
      const trimmed = handle.trim();
      const body: CreateActorRequest = { baseUrl, handle: trimmed === "" ? null : trimmed };
      setPending(true);
      setRequest(body);
      try {
        const answer = await callFe<ActorDocument>("/account/create", { body });
        if (answer.ok) learnFromDocument(answer.data);
        setResult(answer);
      } catch (failure) {
        setResult({ ok: false, status: 0, data: { detail: String(failure) } });
        setPending(false);
        return;
      }
      try {
        await onCreated();
      } finally {
        setPending(false);
      }
    },
    [onCreated],
  );

  return { result, pending, request, create, dismiss: useCallback(() => setResult(null), []) };
}
