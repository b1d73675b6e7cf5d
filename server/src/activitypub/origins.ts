import type { Services } from "../services.ts";

/** The origins (scheme://host:port) this server hosts actors on. */
export function listOurOrigins(services: Services): string[] {
  return services.config.baseUrls.map((url) => new URL(url).origin);
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
