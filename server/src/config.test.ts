import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseCommandLine } from "./config.ts";

describe("configuration", () => {
  it("has the documented defaults", () => {
    const config = loadConfig([], {});
    expect(config).toMatchObject({
      port: 3000,
      host: "localhost",
      baseUrls: ["http://localhost:3000"],
      baseUrlsGiven: false,
      database: "sqlite:./data/corral.sqlite",
      allowPrivateAddresses: false,
      upstream: null,
    });
  });

  it("reads every option from the environment, and flags win", () => {
    const env = {
      PORT: "4000",
      HOST: "0.0.0.0",
      CORRAL_BASE_URLS: "https://a.example, https://b.example/",
      CORRAL_DATABASE: "postgres://db/corral",
      CORRAL_ALLOW_PRIVATE_ADDRESSES: "1",
      CORRAL_UPSTREAM: "https://cattle.example/",
    };
    expect(loadConfig([], env)).toMatchObject({
      port: 4000,
      host: "0.0.0.0",
      baseUrls: ["https://a.example", "https://b.example"],
      database: "postgres://db/corral",
      allowPrivateAddresses: true,
      upstream: "https://cattle.example",
    });
    const flagged = loadConfig(
      ["--port", "5000", "--base-url", "https://c.example", "--base-url", "https://d.example"],
      env,
    );
    expect(flagged.port).toBe(5000);
    expect(flagged.baseUrls).toEqual(["https://c.example", "https://d.example"]);
  });

  it("defaults the base URL to the port in use", () => {
    expect(loadConfig(["--port", "8080"], {}).baseUrls).toEqual(["http://localhost:8080"]);
  });

  it("rejects a base URL with a path, naming the flag", () => {
    expect(() => loadConfig(["--base-url", "https://a.example/social"], {})).toThrow(
      new ConfigError(
        'invalid configuration: --base-url: "https://a.example/social" must be an http(s) origin without a path',
      ),
    );
  });

  it("parses account commands and checks their arity", () => {
    expect(
      parseCommandLine(["account", "new", "al", "pw", "--admin", "--permission", "x"], {}),
    ).toEqual({
      command: "account new",
      database: "sqlite:./data/corral.sqlite",
      name: "al",
      password: "pw",
      admin: true,
      permissions: ["x"],
    });
    expect(() => parseCommandLine(["account", "delete"], {})).toThrow(
      "usage: corral account delete NAME",
    );
    expect(() => parseCommandLine(["account", "list", "--admin"], {})).toThrow(
      /belong to "account new"/,
    );
    expect(() => parseCommandLine(["frob"], {})).toThrow(/unknown command "frob"/);
  });
});
