import type { Page } from "playwright-core";
import { drawerEntry, signIn, streamsConnected } from "./console-ui.ts";
import type { Corral } from "./corral-server.ts";
import { buildActivity, signInApi, type FeApi } from "./fe-api.ts";
import type { Account } from "./fixtures.ts";

// Every stream message in these tests comes from the real server: an unknown method lands on the
// error stream, a send_message between two of the account's actors on the outgoing and (through
// the signed inbox) incoming streams.

export type Setup = { api: FeApi; sender: string; receiver: string };

export async function signInWithTwoActors(
  page: Page,
  corral: Corral,
  account: Account,
): Promise<Setup> {
  const api = await signInApi(corral.url, account.name, account.password);
  // Handles are unique per server, and every test here has its own account.
  const sender = (await api.createActor(`s_${account.name}`)).id;
  const receiver = (await api.createActor(`r_${account.name}`)).id;
  await signIn(page, account);
  await drawerEntry(page, "Incoming").waitFor();
  return { api, sender, receiver };
}

export async function reloadAndReconnect(page: Page): Promise<void> {
  const reconnected = streamsConnected(page);
  await page.reload();
  await reconnected;
}

/** The message trees on a stream page. */
export function messageTrees(page: Page) {
  return page.locator("main .json-tree");
}

export async function causeErrors({ api, sender }: Setup, count: number): Promise<void> {
  for (let index = 0; index < count; index++)
    await api.trigger(`no_such_method_${index}`, { actor: sender });
}

export async function sendActivities(
  { api, sender, receiver }: Setup,
  types: string[],
): Promise<void> {
  for (const type of types)
    await api.trigger("send_message", {
      actor: sender,
      data: buildActivity(type, sender, receiver),
    });
}
