// What the real cattle_grid needs on this machine, checked before anything starts: each missing
// part is one line naming what to install or start. Never a skip: a test that quietly did not
// run against the real peer would hide exactly what these tests are for.

import { createConnection } from "node:net";
import postgres from "postgres";
import { findProgram, oneLineError, searchPath } from "./programs.ts";

export interface PeerMachine {
  /** Folders to find nginx and rabbitmqctl in. */
  path: string[];
  /** Where to create and drop databases (trust auth). */
  postgresAdminUrl: string;
  /** RabbitMQ's AMQP port on 127.0.0.1 (guest/guest). */
  amqpPort: number;
}

export function thisMachine(): PeerMachine {
  return {
    path: searchPath(),
    postgresAdminUrl: process.env.CORRAL_TEST_POSTGRES ?? "postgres://postgres@127.0.0.1:5432/test",
    amqpPort: 5672,
  };
}

/** The programs to run; throws one line for the first thing missing. */
export async function checkPrerequisites(
  machine: PeerMachine,
): Promise<{ nginx: string; rabbitmqctl: string }> {
  const nginx = findProgram("nginx", machine.path);
  if (!nginx) throw oneLineError("the real-peer tests need nginx: apt-get install -y nginx");
  const rabbitmqctl = findProgram("rabbitmqctl", machine.path);
  if (!rabbitmqctl) {
    throw oneLineError(
      "the real-peer tests need RabbitMQ: apt-get install -y rabbitmq-server, then rabbitmq-server -detached",
    );
  }
  if (!(await answers(machine.amqpPort))) {
    throw oneLineError(
      `the real-peer tests need RabbitMQ at 127.0.0.1:${machine.amqpPort}, which is not answering: start it with rabbitmq-server -detached`,
    );
  }
  const sql = postgres(machine.postgresAdminUrl, {
    max: 1,
    connect_timeout: 5,
    onnotice: () => {},
  });
  try {
    await sql`SELECT 1`;
  } catch (error) {
    throw oneLineError(
      `the real-peer tests need PostgreSQL at ${machine.postgresAdminUrl} (trust auth; CORRAL_TEST_POSTGRES names another): ${(error as Error).message}`,
    );
  } finally {
    await sql.end({ timeout: 1 });
  }
  return { nginx, rabbitmqctl };
}

function answers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host: "127.0.0.1", port, timeout: 3_000 });
    const end = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.once("connect", () => end(true));
    socket.once("error", () => end(false));
    socket.once("timeout", () => end(false));
  });
}
