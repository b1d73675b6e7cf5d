import { lookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { isPublicAddress } from "./addresses.ts";

// DNS rebinding (docs/server-guide.md#untrusted-input): a name may resolve to a public address when
// checked and to a private one when connected. So the check happens where the connection is made:
// the socket's own lookup resolves the name once, checks every answer, and connects only to an
// answer it checked. There is no second resolution to differ from the first.

/** A name's addresses, as dns.lookup(name, {all: true}) gives them; tests answer themselves. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export const resolveWithDns: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true })).map((answer) => answer.address);

/** A connection refused because its name resolved to a private address. */
export class PrivateAddressError extends Error {
  readonly code = "ECORRAL_PRIVATE_ADDRESS";
  readonly hostname: string;
  readonly address: string;
  constructor(hostname: string, address: string) {
    super(`refused private address ${hostname} (${address})`);
    this.name = "PrivateAddressError";
    this.hostname = hostname;
    this.address = address;
  }
}

/** A lookup for net.connect/tls.connect (and undici's connect options) that pins to checked answers. */
export function pinnedLookup(resolveHost: ResolveHost, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolveHost(hostname)
      .then((addresses) => {
        if (addresses.length === 0)
          throw new Error(`DNS lookup of ${hostname} returned no address`);
        for (const address of addresses) {
          if (isIP(address) === 0) throw new Error(`DNS lookup of ${hostname} answered ${address}`);
          if (!allowPrivate && !isPublicAddress(address))
            throw new PrivateAddressError(hostname, address);
        }
        const answers = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((answer) => !options.family || answer.family === options.family);
        if (answers.length === 0)
          throw new Error(`DNS lookup of ${hostname} has no IPv${options.family} address`);
        if (options.all) callback(null, answers);
        else callback(null, answers[0]!.address, answers[0]!.family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, ""));
  };
}
