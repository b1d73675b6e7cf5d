import type { Services } from "../services.ts";

// Made once per list of base URLs (a new list, as main.ts and tests assign, is read anew): every
// delivery asks whether its inbox is ours.
const origins = new WeakMap<readonly string[], string[]>();

/** The origins (scheme://host:port) this server hosts actors on. */
export function listOurOrigins(services: Services): string[] {
  const { baseUrls } = services.config;
  let list = origins.get(baseUrls);
  if (!list) {
    list = baseUrls.map((url) => new URL(url).origin);
    origins.set(baseUrls, list);
  }
  return list;
}

export function isOurs(services: Services, uri: string): boolean {
  try {
    return listOurOrigins(services).includes(new URL(uri).origin);
  } catch {
    return false;
  }
}

/** Whether `host` (host[:port], as in a handle) is one this server hosts actors on. */
export function isOurHost(services: Services, host: string): boolean {
  return listOurOrigins(services).some((origin) => new URL(origin).host === host.toLowerCase());
}
