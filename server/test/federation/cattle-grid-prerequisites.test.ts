// The real-peer tests need python3.11, nginx, RabbitMQ and PostgreSQL. A missing one must end the
// run with one line naming what to install or start, never skip the tests that need it.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkPrerequisites, thisMachine } from "../../../test-peers/prerequisites.ts";
import { ensureVenv } from "../../../test-peers/python-venv.ts";
import { freePort } from "../../../test-kit/free-port.ts";

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => null,
    (reason: Error) => reason,
  );
  if (!error) throw new Error("expected a failure");
  // One line, and nothing else printed with it: no stack.
  expect(error.message).not.toContain("\n");
  expect(error.stack).toBe(error.message);
  return error;
}

/** A folder holding empty files named like the given programs: found, never run. */
function folderWith(...programs: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "corral-programs-"));
  for (const program of programs) writeFileSync(join(dir, program), "");
  return dir;
}

describe("the real-peer prerequisites", () => {
  it("names nginx and how to install it", async () => {
    const error = await failure(checkPrerequisites({ ...thisMachine(), path: [] }));
    expect(error.message).toBe("the real-peer tests need nginx: apt-get install -y nginx");
  });

  it("names RabbitMQ when rabbitmqctl is missing", async () => {
    const error = await failure(
      checkPrerequisites({ ...thisMachine(), path: [folderWith("nginx")] }),
    );
    expect(error.message).toContain("apt-get install -y rabbitmq-server");
  });

  it("says to start RabbitMQ when nothing answers on its port", async () => {
    const path = [folderWith("nginx", "rabbitmqctl")];
    const amqpPort = await freePort();
    const error = await failure(checkPrerequisites({ ...thisMachine(), path, amqpPort }));
    expect(error.message).toContain(`RabbitMQ at 127.0.0.1:${amqpPort}, which is not answering`);
  });

  it("names PostgreSQL when it does not answer", async () => {
    const path = [folderWith("nginx", "rabbitmqctl")];
    const postgresAdminUrl = `postgres://postgres@127.0.0.1:${await freePort()}/test`;
    const error = await failure(checkPrerequisites({ ...thisMachine(), path, postgresAdminUrl }));
    expect(error.message).toMatch(
      /^the real-peer tests need PostgreSQL at postgres:\/\/.*:\d+\/test/,
    );
  });

  it("names python3.11 when a virtualenv must be built without it", async () => {
    const requirements = join(mkdtempSync(join(tmpdir(), "corral-req-")), "requirements.txt");
    writeFileSync(requirements, `# nothing ${Date.now()} ${Math.random()}\n`);
    const error = await failure(ensureVenv(requirements, { path: [] }));
    expect(error.message).toBe(
      "the real-peer tests need Python 3.11 (python3.11 with venv): apt-get install -y python3.11-venv",
    );
  });
});
