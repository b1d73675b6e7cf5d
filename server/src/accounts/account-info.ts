// An account's information as cattle_grid gives it: GET /fe/account/info answers it, and so does
// a Cattle Drive `request.info` (cattle-drive/requests.ts), from this one place.

import { listActors } from "../actors/index.ts";
import { methodInformationFor } from "../methods/catalog.ts";
import type { Services } from "../services.ts";
import { backendVersion } from "../version.ts";
import { allowedBaseUrls, type Account } from "./accounts.store.ts";

export const backend = { name: "corral", version: backendVersion };
export const protocol = { name: "CattleDrive", version: "0.1.0" };

export interface AccountInformation {
  accountName: string;
  actors: { id: string; name: string }[];
  baseUrls: string[];
  backend: { name: string; version: string };
  protocol: { name: string; version: string };
  methodInformation: ReturnType<typeof methodInformationFor>;
}

export async function describeAccount(
  services: Services,
  account: Account,
): Promise<AccountInformation> {
  const actors = await listActors(services.db, account.id);
  return {
    accountName: account.name,
    actors: actors.map((a) => ({ id: a.id, name: a.name })),
    baseUrls: allowedBaseUrls(account, services.config.baseUrls),
    backend,
    protocol,
    methodInformation: methodInformationFor(actors.map((a) => a.id)),
  };
}
