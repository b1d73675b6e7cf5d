// RabbitMQ's HTTP auth backend asks these (docs/cattle-drive.md shows its configuration), as it
// asks cattle_grid's: form-encoded POSTs answered `allow` or `deny` in plain text. A login is an
// account's name and password (throttled as sign-ins are); the vhost is the one --amqp names;
// topics are only send.{account}.*, receive.{account}.* and error.{account} on amq.topic. The
// answer cannot carry a reason, so each refusal is one log line that says why.

import { getLogger } from "@logtape/logtape";
import { Hono, type Context } from "hono";
import type { SignInThrottle } from "../accounts/index.ts";
import { checkLogin } from "../cattle-drive/login.ts";
import { mayUseKey } from "../cattle-drive/protocol.ts";
import { AMQP_EXCHANGE } from "../cattle-drive/runtime.ts";
import type { Services } from "../services.ts";

const log = getLogger(["corral", "rabbitmq"]);

export function createRabbitMqRoutes(services: Services, throttle: SignInThrottle) {
  const vhost = services.config.amqp
    ? decodeURIComponent(new URL(services.config.amqp).pathname.slice(1)) || "/"
    : "/";
  const answer = (c: Context, allowed: boolean, why?: string) => {
    if (!allowed) log.warning("RabbitMQ: refused {why}", { why });
    return c.text(allowed ? "allow" : "deny");
  };
  const form = async (c: Context) => {
    const body = await c.req.parseBody().catch(() => ({}));
    const field = (name: string) => {
      const value = (body as Record<string, unknown>)[name];
      return typeof value === "string" ? value : "";
    };
    return field;
  };
  return new Hono()
    .post("/rabbitmq/user", async (c) => {
      const field = await form(c);
      const name = field("username");
      // RabbitMQ asks for every client from its own address: failures count per name only.
      const login = await checkLogin(services, throttle, {
        name,
        password: field("password"),
        address: `rabbitmq:${name}`,
      });
      return login.ok
        ? answer(c, true)
        : answer(c, false, `the login of "${name}": ${login.reason}`);
    })
    .post("/rabbitmq/vhost", async (c) => {
      const field = await form(c);
      return field("vhost") === vhost
        ? answer(c, true)
        : answer(
            c,
            false,
            `vhost "${field("vhost")}" for "${field("username")}": only "${vhost}" serves Cattle Drive`,
          );
    })
    .post("/rabbitmq/resource", (c) => answer(c, true))
    .post("/rabbitmq/topic", async (c) => {
      const field = await form(c);
      const name = field("username");
      const exchange = field("name");
      const key = field("routing_key");
      if (exchange !== AMQP_EXCHANGE)
        return answer(c, false, `exchange "${exchange}" for "${name}": only ${AMQP_EXCHANGE}`);
      if (!mayUseKey(name, key))
        return answer(
          c,
          false,
          `routing key "${key}" for "${name}": only send.${name}.*, receive.${name}.* and error.${name}`,
        );
      return answer(c, true);
    });
}
