import { sendAsActor } from "../delivery/send-as-actor.ts";
import type { Services } from "../services.ts";
import type { MethodInput } from "./index.ts";
import { requireActor, requireData } from "./inputs.ts";

/** send_message {actor, data}: delivers data as given, signed as actor. */
export async function sendMessage(services: Services, input: MethodInput): Promise<void> {
  const actor = await requireActor(services, input);
  const data = requireData(input);
  await sendAsActor(services, {
    accountId: input.accountId,
    actorId: actor.id,
    data,
    routingKey: input.method,
    original: input.body,
  });
}
