import { test } from "./harness/fixtures.ts";
import { buildCreateNote, signInApi } from "./harness/fe-api.ts";
import { runRestartScenario } from "./harness/restart-scenario.ts";

// issue 29: Corral's own server behind a reverse proxy (a real one in the test process, answering
// 502 as nginx does while the server is down), killed with kill -9 and started again with a
// console open. The scenario itself is in harness/restart-scenario.ts, with the server as a
// parameter; the real cattle_grid's harness runs the same scenario.

test("Corral killed with kill -9 behind a proxy: the open Incoming page comes back by itself, nothing missed, nothing doubled, no hammering", async ({
  browser,
  corral,
  account,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const sender = (await api.createActor(`s_${account.name}`)).id;
  const receiver = (await api.createActor(`r_${account.name}`)).id;
  const figures = await runRestartScenario(browser, {
    url: corral.url,
    account,
    kill: () => corral.kill(),
    start: () => corral.start(),
    replays: true,
    sendNote: (text) =>
      api.trigger("send_message", { actor: sender, data: buildCreateNote(sender, receiver, text) }),
    noteArrived: (text) => waitForIncoming(corral.url, api.token, text),
  });
  console.info(`server-restart figures: ${JSON.stringify(figures)}`);
});

/** Reads the account's incoming stream from its start until a message contains `text`. */
async function waitForIncoming(url: string, token: string, text: string): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 15_000);
  try {
    const response = await fetch(`${url}/fe/account/stream/incoming`, {
      headers: { Authorization: `Bearer ${token}`, "Last-Event-ID": "0" },
      signal: controller.signal,
    });
    const decoder = new TextDecoder();
    let seen = "";
    for await (const chunk of response.body!) {
      seen += decoder.decode(chunk, { stream: true });
      if (seen.includes(text)) return;
    }
    throw new Error(`the incoming stream ended without ${text}`);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
