import { generateKeyPairSync, sign, verify } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { SignPool } from "./sign-pool.ts";

// The signing threads are real worker threads; what they sign is checked with node:crypto on
// this thread, as a receiving server would check it.

const pools: SignPool[] = [];
afterEach(async () => {
  while (pools.length) await pools.pop()!.close();
});

const rsa = () => generateKeyPairSync("rsa", { modulusLength: 2048 });

describe("signing threads", () => {
  it("signs many strings with several keys on every thread, each signature verifying with its key", async () => {
    const pool = new SignPool(2);
    pools.push(pool);
    const keys = [rsa(), rsa(), rsa()];
    const jobs = Array.from({ length: 300 }, (_, n) => ({
      key: keys[n % 3]!,
      data: `line ${n} ü`,
    }));
    const signatures = await Promise.all(jobs.map((j) => pool.sign(j.key.privateKey, j.data)));
    for (const [n, signature] of signatures.entries()) {
      const { key, data } = jobs[n]!;
      const ok = verify(
        "sha256",
        Buffer.from(data),
        key.publicKey,
        Buffer.from(signature, "base64"),
      );
      expect(ok, `signature ${n}`).toBe(true);
    }
    // A later burst, after the threads hold the keys, signs as well.
    const again = await pool.sign(keys[1]!.privateKey, "again");
    expect(
      verify("sha256", Buffer.from("again"), keys[1]!.publicKey, Buffer.from(again, "base64")),
    ).toBe(true);
  });

  it("checks signatures beside signing, in one batch: true, false, or refused for a key that cannot check", async () => {
    const pool = new SignPool(2);
    pools.push(pool);
    const [a, b] = [rsa(), rsa()];
    const signed = (key: typeof a, data: string) =>
      sign("sha256", Buffer.from(data), key.privateKey).toString("base64");
    const ed = generateKeyPairSync("ed25519");
    const [good, otherKey, otherText, made, cannot] = await Promise.allSettled([
      pool.verify(a.publicKey, "line ü", signed(a, "line ü")),
      pool.verify(b.publicKey, "line ü", signed(a, "line ü")),
      pool.verify(a.publicKey, "line u", signed(a, "line ü")),
      pool.sign(b.privateKey, "z"),
      pool.verify(ed.publicKey, "line", signed(a, "line")),
    ]);
    expect(good).toEqual({ status: "fulfilled", value: true });
    expect(otherKey).toEqual({ status: "fulfilled", value: false });
    expect(otherText).toEqual({ status: "fulfilled", value: false });
    expect(made.status === "fulfilled" && typeof made.value).toBe("string");
    expect(cannot.status).toBe("rejected");
  });

  it("refuses with a reason a key it cannot sign with, and goes on signing the others", async () => {
    const pool = new SignPool(1);
    pools.push(pool);
    const ed = generateKeyPairSync("ed25519");
    const good = rsa();
    const [bad, fine] = await Promise.allSettled([
      pool.sign(ed.privateKey, "x"),
      pool.sign(good.privateKey, "y"),
    ]);
    expect(bad).toMatchObject({
      status: "rejected",
      reason: { message: expect.stringMatching(/^signing failed: /) },
    });
    expect(fine.status).toBe("fulfilled");
  });

  it("refuses to sign once closed, saying so", async () => {
    const pool = new SignPool(1);
    await pool.close();
    await expect(pool.sign(rsa().privateKey, "x")).rejects.toThrow(
      "the signing threads have stopped",
    );
  });
});
