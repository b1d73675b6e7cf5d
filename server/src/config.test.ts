import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, missingDatabaseFolder, parseConfig } from "./config.ts";

describe("configuration", () => {
  it("has the documented defaults", () => {
    const config = loadConfig({}, {});
    expect(config).toMatchObject({
      port: 3000,
      host: "localhost",
      baseUrls: ["http://localhost:3000"],
      baseUrlsGiven: false,
      database: "sqlite:./data/corral.sqlite",
      allowPrivateAddresses: false,
      trustProxy: false,
      role: "all",
      dbPool: 10,
      claimLease: 30,
      upstream: null,
      upstreamAmqp: null,
    });
  });

  it("a default base URL stays a default when the configuration is completed again (serve --port 0)", () => {
    const loaded = loadConfig({ port: "0" }, {});
    const again = parseConfig(loaded);
    expect(again.baseUrlsGiven).toBe(false);
    expect(parseConfig({ ...loaded, baseUrlsGiven: undefined }).baseUrlsGiven).toBe(true);
  });

  it("reads --role and --db-pool, and refuses web or worker on SQLite naming both", () => {
    const pg = { CORRAL_DATABASE: "postgres://db/corral" };
    expect(loadConfig({ role: "web", dbPool: "32" }, pg)).toMatchObject({
      role: "web",
      dbPool: 32,
    });
    expect(loadConfig({}, { ...pg, CORRAL_ROLE: "worker", CORRAL_DB_POOL: "4" })).toMatchObject({
      role: "worker",
      dbPool: 4,
    });
    expect(() => loadConfig({ role: "worker" }, {})).toThrow(
      /--role worker: a sqlite: database is served by one process \(--role all\)/,
    );
    expect(() => loadConfig({ role: "both", dbPool: "0" }, pg)).toThrow(
      /--role: must be all, web or worker; --db-pool: must be a whole number from 1 to 1000/,
    );
  });

  it("reads --claim-lease in whole seconds, and refuses what is not one from 1 to 3600", () => {
    expect(loadConfig({ claimLease: "10" }, {}).claimLease).toBe(10);
    expect(loadConfig({}, { CORRAL_CLAIM_LEASE: "120" }).claimLease).toBe(120);
    for (const value of ["0", "1.5", "3601", "soon"])
      expect(() => loadConfig({ claimLease: value }, {})).toThrow(
        /--claim-lease: must be a whole number of seconds from 1 to 3600/,
      );
  });

  it("reads every option from the environment, and flags win", () => {
    const env = {
      PORT: "4000",
      HOST: "0.0.0.0",
      CORRAL_BASE_URLS: "https://a.example, https://b.example/",
      CORRAL_DATABASE: "postgres://db/corral",
      CORRAL_ALLOW_PRIVATE_ADDRESSES: "1",
      CORRAL_TRUST_PROXY: "1",
      CORRAL_UPSTREAM: "https://cattle.example/",
    };
    expect(loadConfig({}, env)).toMatchObject({
      port: 4000,
      host: "0.0.0.0",
      baseUrls: ["https://a.example", "https://b.example"],
      database: "postgres://db/corral",
      allowPrivateAddresses: true,
      trustProxy: true,
      upstream: "https://cattle.example",
    });
    const flagged = loadConfig(
      { port: "5000", baseUrls: ["https://c.example", "https://d.example"] },
      env,
    );
    expect(flagged.port).toBe(5000);
    expect(flagged.baseUrls).toEqual(["https://c.example", "https://d.example"]);
  });

  it("reads --upstream-amqp beside --upstream, and refuses it alone or as another scheme", () => {
    const amqpUrl = "amqp://guest:guest@127.0.0.1:5672/cattle";
    expect(
      loadConfig({ upstream: "https://cattle.example", upstreamAmqp: amqpUrl }, {}),
    ).toMatchObject({ upstreamAmqp: amqpUrl });
    expect(
      loadConfig({}, { CORRAL_UPSTREAM: "https://c.example", CORRAL_UPSTREAM_AMQP: amqpUrl })
        .upstreamAmqp,
    ).toBe(amqpUrl);
    expect(() => loadConfig({ upstreamAmqp: amqpUrl }, {})).toThrow(
      "--upstream-amqp: records a cattle_grid's events in proxy mode: give --upstream too",
    );
    expect(() =>
      loadConfig({ upstream: "https://c.example", upstreamAmqp: "http://rabbit:5672/" }, {}),
    ).toThrow("--upstream-amqp: must be an amqp:// or amqps:// URL");
  });

  it("reads only the settings a command uses: a bad PORT does not break an account command", () => {
    const config = loadConfig(
      {},
      { PORT: "abc", CORRAL_DATABASE: "sqlite::memory:" },
      {
        only: ["database"],
      },
    );
    expect(config.database).toBe("sqlite::memory:");
    expect(() => loadConfig({}, { PORT: "abc" })).toThrow(/--port: must be a whole number/);
  });

  it("defaults the base URL to the port in use", () => {
    expect(loadConfig({ port: "8080" }, {}).baseUrls).toEqual(["http://localhost:8080"]);
  });

  it("rejects a base URL with a path, naming the flag", () => {
    expect(() => loadConfig({ baseUrls: ["https://a.example/social"] }, {})).toThrow(
      new ConfigError(
        'invalid configuration: --base-url: "https://a.example/social" must be an http(s) origin without a path',
      ),
    );
  });

  it("refuses a sqlite file in a missing folder, except the default ./data", () => {
    const cwd = mkdtempSync(join(tmpdir(), "corral-config-"));
    expect(missingDatabaseFolder("sqlite:./data/corral.sqlite", cwd)).toBeNull();
    expect(missingDatabaseFolder("sqlite:data/other.sqlite", cwd)).toBeNull();
    expect(missingDatabaseFolder("sqlite:x.sqlite", cwd)).toBeNull();
    expect(missingDatabaseFolder("sqlite::memory:", cwd)).toBeNull();
    expect(missingDatabaseFolder("postgres://db/x", cwd)).toBeNull();
    expect(missingDatabaseFolder("sqlite:./nope/x.sqlite", cwd)).toBe(
      `the folder ${join(cwd, "nope")} does not exist (only the default ./data is created); create it first`,
    );
    expect(() =>
      loadConfig({ database: "sqlite:/no/such/dir/x.sqlite", port: "x" }, {}, { cwd }),
    ).toThrow(/--port: .*; --database: the folder \/no\/such\/dir does not exist/);
  });
});
