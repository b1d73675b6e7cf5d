import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { describe, expect, it } from "vitest";
import { PrivateAddressError, pinnedLookup, type ResolveHost } from "./pinned-lookup.ts";

// The lookup a connection makes is called directly here: nothing connects anywhere. That the
// server's connections really use it is shown by test/hostile/rebinding.test.ts on loopback.

const PUBLIC = "93.184.215.14";

/** Answers `answers[n]` to the nth question (the last one ever after); counts the questions. */
function scriptedResolver(...answers: string[][]) {
  const asked: string[] = [];
  const resolve: ResolveHost = async (hostname) => {
    asked.push(hostname);
    return answers[Math.min(asked.length, answers.length) - 1]!;
  };
  return { asked, resolve };
}

type Answer = {
  error: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family?: number;
};

function ask(lookup: LookupFunction, options: { all?: boolean; family?: number } = {}) {
  return new Promise<Answer>((resolve) =>
    lookup("rebind.test", options, (error, address, family) => resolve({ error, address, family })),
  );
}

describe("the pinned lookup of outgoing connections", () => {
  it("resolves once per connection and hands back the address it checked; a private answer later is refused", async () => {
    const resolver = scriptedResolver([PUBLIC], ["127.0.0.1"]);
    const lookup = pinnedLookup(resolver.resolve, false);

    const first = await ask(lookup);
    expect(first).toEqual({ error: null, address: PUBLIC, family: 4 });
    expect(resolver.asked).toEqual(["rebind.test"]);

    const second = await ask(lookup);
    expect(second.error).toBeInstanceOf(PrivateAddressError);
    expect(second.error!.message).toBe("refused private address rebind.test (127.0.0.1)");
    expect(resolver.asked).toEqual(["rebind.test", "rebind.test"]);
  });

  it("refuses a name when any one of its answers is private, whichever the connection would pick", async () => {
    const lookup = pinnedLookup(scriptedResolver([PUBLIC, "10.0.0.7"]).resolve, false);
    expect((await ask(lookup, { all: true })).error).toBeInstanceOf(PrivateAddressError);
    expect((await ask(lookup)).error).toBeInstanceOf(PrivateAddressError);
  });

  it("answers every checked address when asked for all (happy eyeballs), of the family asked for", async () => {
    const lookup = pinnedLookup(
      scriptedResolver([PUBLIC, "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]).resolve,
      false,
    );
    expect((await ask(lookup, { all: true })).address).toEqual([
      { address: PUBLIC, family: 4 },
      { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
    ]);
    expect(await ask(lookup, { family: 6 })).toMatchObject({
      address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c",
      family: 6,
    });
  });

  it("lets private answers through with --allow-private-addresses, and refuses no answer or a non-address", async () => {
    expect(await ask(pinnedLookup(scriptedResolver(["127.0.0.1"]).resolve, true))).toEqual({
      error: null,
      address: "127.0.0.1",
      family: 4,
    });
    expect((await ask(pinnedLookup(scriptedResolver([]).resolve, true))).error?.message).toMatch(
      /returned no address/,
    );
    expect(
      (await ask(pinnedLookup(scriptedResolver(["not-an-ip"]).resolve, true))).error?.message,
    ).toMatch(/answered not-an-ip/);
  });
});
