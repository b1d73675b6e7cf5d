import { startCattleGrid } from "../test-peers/cattle-grid.ts";
import { test } from "./harness/fixtures.ts";
import { startCorral } from "./harness/corral-server.ts";
import { buildCreateNote, signInApi } from "./harness/fe-api.ts";
import { runRestartScenario } from "./harness/restart-scenario.ts";

// issue 29 against the real cattle_grid 0.5.22: the console in proxy mode (`corral serve
// --upstream`) in front of cattle_grid behind its nginx; cattle_grid's own process is killed with
// kill -9 (nginx then answers 502, and so does the console's server) and started again, with
// Incoming open. cattle_grid's events carry no ids, so what was missed comes from its history.

test("the real cattle_grid killed with kill -9 behind nginx: the open Incoming page comes back by itself, missed Notes from its history once each", async ({
  browser,
}) => {
  const cattleGrid = await startCattleGrid();
  const console_ = await startCorral({ upstream: cattleGrid.origin });
  try {
    const reader = { name: "reader", password: "reader-password" };
    const writer = { name: "writer", password: "writer-password" };
    // One after the other: two sign-ins at once were seen to give cattle_grid a token it then
    // answered 401 for.
    await cattleGrid.createAccount(reader.name, reader.password);
    await cattleGrid.createAccount(writer.name, writer.password);
    const readerApi = await signInApi(cattleGrid.origin, reader.name, reader.password);
    const writerApi = await signInApi(cattleGrid.origin, writer.name, writer.password);
    const receiver = await readerApi.createActor("reader");
    const sender = await writerApi.createActor("writer");
    const figures = await runRestartScenario(browser, {
      url: console_.url,
      account: reader,
      kill: () => cattleGrid.kill(),
      start: () => cattleGrid.start(),
      replays: false,
      // Incoming and Outgoing come on its combined stream.
      streams: ["combined", "error"],
      sendNote: (text) =>
        writerApi.trigger("send_message", {
          actor: sender.id,
          data: buildCreateNote(sender.id, receiver.id, text),
        }),
      noteArrived: (text) => inHistory(cattleGrid.origin, readerApi.token, text),
    });
    console.info(`cattle_grid restart figures: ${JSON.stringify(figures)}`);
  } finally {
    await console_.dispose();
    await cattleGrid.stop();
  }
}, 240_000);

/** Resolves once cattle_grid's history of the account holds an event containing `text`. */
async function inHistory(origin: string, token: string, text: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${origin}/fe/account/history`, {
      headers: { Authorization: `Bearer ${token}` },
    }).catch(() => null);
    if (response?.ok && (await response.text()).includes(text)) return;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`cattle_grid's history never held ${text}`);
}
