import { sendAsActor } from "./send-as-actor.ts";
import type { Services } from "../services.ts";
import type { MethodCall } from "./method-call.ts";

/**
 * send_message {actor, data}: delivers data as given, signed as actor. An activity without an
 * actor would be refused by every inbox (the actor must be the signer): absent, it is actor.
 */
export async function sendMessage(
  services: Services,
  call: MethodCall<{ data: Record<string, unknown> }>,
): Promise<void> {
  const { data } = call.params;
  await sendAsActor(services, {
    accountId: call.accountId,
    actorId: call.actor.id,
    data: data.actor === undefined ? { ...data, actor: call.actor.id } : data,
    routingKey: call.method,
    original: call.body,
    trigger: call.trigger,
  });
}
