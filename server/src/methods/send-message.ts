import { sendAsActor } from "../delivery/send-as-actor.ts";
import type { Services } from "../services.ts";
import type { MethodCall } from "./method-call.ts";

/** send_message {actor, data}: delivers data as given, signed as actor. */
export async function sendMessage(
  services: Services,
  call: MethodCall<{ data: Record<string, unknown> }>,
): Promise<void> {
  await sendAsActor(services, {
    accountId: call.accountId,
    actorId: call.actor.id,
    data: call.params.data,
    routingKey: call.method,
    original: call.body,
    trigger: call.trigger,
  });
}
