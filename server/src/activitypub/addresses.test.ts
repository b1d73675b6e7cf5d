import { describe, expect, it } from "vitest";
import { checkOutgoingUrl, isPrivateHost } from "./addresses.ts";

describe("checkOutgoingUrl", () => {
  it.each([
    "http://127.0.0.1:3000/inbox",
    "http://10.1.2.3/x",
    "http://[::1]/x",
    "http://169.254.169.254/latest",
    "http://localhost:3000/",
    "http://192.168.1.1/",
  ])("refuses the private address %s without the flag, saying how to allow it", async (url) => {
    const check = await checkOutgoingUrl(url, false);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(/private address .*--allow-private-addresses/);
  });

  it("allows private addresses with the flag, and public literals without it", async () => {
    expect(await checkOutgoingUrl("http://127.0.0.1:3000/inbox", true)).toEqual({ ok: true });
    expect(await checkOutgoingUrl("https://93.184.215.14/", false)).toEqual({ ok: true });
  });

  it("refuses other schemes even with the flag", async () => {
    expect(await checkOutgoingUrl("file:///etc/passwd", true)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("unsupported protocol"),
    });
  });

  it("tells loopback and private hosts from public ones", () => {
    expect(isPrivateHost("127.0.0.2")).toBe(true);
    expect(isPrivateHost("localhost")).toBe(true);
    expect(isPrivateHost("example.com")).toBe(false);
  });
});
