// A RabbitMQ vhost of a test's own on the machine's RabbitMQ (127.0.0.1:5672, rabbitmqctl), with
// Cattle Drive clients as RabbitMQ users whose topics follow cattle_grid's rule (send.NAME.*,
// receive.NAME.*, error.NAME on amq.topic): what RabbitMQ's HTTP auth backend enforces when it
// asks cattle_grid's or Corral's /rabbitmq/* routes, set here with rabbitmqctl.
//
//   const vhost = await createRabbitVhost();         // guest may do anything there
//   vhost.url("guest", "guest")                      // amqp://guest:guest@127.0.0.1:5672/NAME
//   await vhost.addClient("alice_1f2e", "password")  // a user named as the account (global in
//                                                    //   RabbitMQ: make names unique per run)
//   await vhost.delete();                            // the vhost and the users; safe twice
//   createRabbitVhost({ existing: cg.vhost })        // users on cattle_grid's vhost only
//
// Needs RabbitMQ (prerequisites.ts names what to install or start when it is missing).

import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { checkPrerequisites, thisMachine } from "./prerequisites.ts";
import { oneLineError } from "./programs.ts";

const execFileAsync = promisify(execFile);

export interface RabbitVhost {
  name: string;
  url(user: string, password: string): string;
  addClient(name: string, password: string): Promise<void>;
  delete(): Promise<void>;
}

/** `existing`: users on a vhost someone else made (cattle_grid's), which delete() leaves. */
export async function createRabbitVhost(options: { existing?: string } = {}): Promise<RabbitVhost> {
  const machine = thisMachine();
  const { rabbitmqctl } = await checkPrerequisites(machine);
  const run = (args: string[]) =>
    execFileAsync(rabbitmqctl, ["--quiet", ...args], { timeout: 60_000 }).then(
      () => undefined,
      (error: Error & { stderr?: string }) => {
        throw oneLineError(
          `rabbitmqctl ${args[0]} failed (is RabbitMQ running? rabbitmq-server -detached): ${(error.stderr ?? error.message).trim().split("\n").at(-1)}`,
        );
      },
    );
  const name = options.existing ?? `corral_drive_${randomBytes(5).toString("hex")}`;
  const users: string[] = [];
  if (!options.existing) {
    await run(["add_vhost", name]);
    await run(["set_permissions", "-p", name, "guest", ".*", ".*", ".*"]);
  }
  return {
    name,
    url: (user, password) =>
      `amqp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${machine.amqpPort}/${name}`,
    async addClient(user, password) {
      await run(["add_user", user, password]);
      users.push(user);
      await run(["set_permissions", "-p", name, user, ".*", ".*", ".*"]);
      const topics = `^(send\\.${user}\\..*|receive\\.${user}\\..*|error\\.${user})$`;
      await run(["set_topic_permissions", "-p", name, user, "amq.topic", topics, topics]);
    },
    async delete() {
      for (const user of users.splice(0)) await run(["delete_user", user]).catch(() => {});
      if (!options.existing) await run(["delete_vhost", name]).catch(() => {});
    },
  };
}
