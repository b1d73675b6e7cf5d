// A loopback port for a test or a bench: the kernel picks one that is free, and we let go of it at
// once, so the caller can name it on a command line (a base URL has to know its port) or use it
// as an address where nothing listens.

import { createServer } from "node:net";

/** A port free right now on `host` (127.0.0.1 unless given; nothing listens on it afterwards). */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error(`no port given on ${host}`)),
      );
    });
  });
}
