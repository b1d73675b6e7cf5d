import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { render, screen, within } from "@testing-library/react";
import { Providers } from "../../app/providers.tsx";
import { setFeBaseUrl } from "../../lib/fe-client.ts";
import { resetUserStore } from "../../lib/user-store.ts";
import type { CattleDriveInfo } from "../../lib/wire-types.ts";
import { startFeServer, type FeRoutes, type FeServer } from "../../test/fe-server.ts";
import { signIn } from "../../test/signed-in.ts";
import { account, sampleInfo } from "../../test/spec-fe.ts";
import CattleDrivePanel from "./cattle-drive-panel.tsx";
import { CATTLE_DRIVE_REFRESH_MS } from "./use-cattle-drive.ts";

let fe: FeServer;
const routes: FeRoutes = {};
const ROUTE = "/account/cattle-drive";

const served: CattleDriveInfo = {
  websocket: { url: "ws://corral.example:3000/ws" },
  amqp: null,
  connections: [],
};

beforeAll(async () => {
  fe = await startFeServer(routes);
  setFeBaseUrl(fe.url);
});
afterAll(() => fe.close());
afterEach(() => vi.useRealTimers());
beforeEach(() => {
  resetUserStore();
  signIn();
  fe.calls.length = 0;
  for (const key of Object.keys(routes)) delete routes[key];
  routes["GET /account/info"] = () => ({ status: 200, body: sampleInfo() });
  routes[`GET ${ROUTE}`] = () => ({ status: 200, body: served });
});

function section() {
  return screen.getByRole("region", { name: "Cattle Drive" });
}

function renderPanel() {
  render(
    <Providers>
      <CattleDrivePanel accountName="alice" />
    </Providers>,
  );
}

describe("Cattle Drive on Info", () => {
  it("waits visibly, then says where clients connect and that none is connected", async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    routes[`GET ${ROUTE}`] = async () => {
      await held;
      return { status: 200, body: served };
    };
    renderPanel();

    expect(
      within(section()).getByRole("progressbar", { name: "Loading Cattle Drive" }),
    ).toBeInTheDocument();
    answer();

    expect(
      await within(section()).findByText("No client of this account is connected."),
    ).toBeInTheDocument();
    expect(within(section()).queryByText("Loading Cattle Drive...")).not.toBeInTheDocument();
    expect(within(section()).getByText("ws://corral.example:3000/ws")).toBeInTheDocument();
    // What almabtrieb and roboherd take, with the account's name in it.
    expect(
      within(section()).getByText("ws://alice:PASSWORD@corral.example:3000/ws"),
    ).toBeInTheDocument();
    expect(within(section()).getByText(/AMQP: not served/)).toBeInTheDocument();
    const call = fe.calls.find((c) => c.path === ROUTE)!;
    expect(call.authorization).toBe(`Bearer ${account.token}`);
  });

  it("lists the connected clients and the AMQP door, and says AMQP clients are not listed", async () => {
    routes[`GET ${ROUTE}`] = () => ({
      status: 200,
      body: {
        websocket: { url: "ws://corral.example:3000/ws" },
        amqp: { url: "amqp://rabbit.example:5672/corral", exchange: "amq.topic" },
        connections: [
          {
            transport: "websocket",
            client: "roboherd-moocow",
            since: "2026-11-28T04:00:00.000Z",
            address: "192.0.2.7",
          },
          {
            transport: "websocket",
            client: "almabtrieb-1",
            since: "2026-11-28T04:05:00.000Z",
            address: null,
          },
        ],
        amqpConnectionsKnown: false,
      } satisfies CattleDriveInfo,
    });
    renderPanel();

    const table = await within(section()).findByRole("table", {
      name: "Connected Cattle Drive clients",
    });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => within(row).getAllByRole("cell")[1]!.textContent)).toEqual([
      "roboherd-moocow",
      "almabtrieb-1",
    ]);
    expect(within(rows[0]!).getByText("WebSocket")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("192.0.2.7")).toBeInTheDocument();
    expect(within(rows[1]!).getByText("unknown")).toBeInTheDocument();
    expect(rows[0]!.querySelector("time")!.getAttribute("datetime")).toBe(
      "2026-11-28T04:00:00.000Z",
    );
    expect(
      within(section()).getByText("2 clients of this account are connected."),
    ).toBeInTheDocument();
    expect(within(section()).getByText("amqp://rabbit.example:5672/corral")).toBeInTheDocument();
    expect(within(section()).getByText("amq.topic")).toBeInTheDocument();
    expect(
      within(section()).getByText(/Clients connected over AMQP are not listed/),
    ).toBeInTheDocument();
  });

  it("in front of cattle_grid, says Cattle Drive is not reported there without asking for it", async () => {
    routes["GET /account/info"] = () => ({
      status: 200,
      body: { ...sampleInfo(), backend: { name: "cattle_grid", version: "0.5.22" } },
    });
    renderPanel();

    expect(
      await within(section()).findByText(/Cattle Drive is not reported there/),
    ).toBeInTheDocument();
    // A request the server is known to lack would be logged as a failed one in the browser.
    expect(fe.calls.filter((c) => c.path === ROUTE)).toEqual([]);
  });

  it("asks a server it does not know once, and says Cattle Drive is not reported on a 404", async () => {
    routes["GET /account/info"] = () => ({
      status: 200,
      body: { ...sampleInfo(), backend: { name: "elsewhere", version: "1" } },
    });
    delete routes[`GET ${ROUTE}`];
    renderPanel();

    expect(
      await within(section()).findByText(/Cattle Drive is not reported there/),
    ).toBeInTheDocument();
    expect(fe.calls.filter((c) => c.path === ROUTE)).toHaveLength(1);
  });

  it("asks again every 15 s: a client that connects shows, a failed refresh keeps the last answer and says why", async () => {
    // Only the refresh timer is faked; the server and its answers stay real.
    vi.useFakeTimers({ toFake: ["setInterval"] });
    renderPanel();
    await within(section()).findByText("No client of this account is connected.");

    routes[`GET ${ROUTE}`] = () => ({
      status: 200,
      body: {
        ...served,
        connections: [
          {
            transport: "websocket",
            client: "roboherd-moocow",
            since: "2026-11-28T04:00:00.000Z",
            address: "192.0.2.7",
          },
        ],
      } satisfies CattleDriveInfo,
    });
    vi.advanceTimersByTime(CATTLE_DRIVE_REFRESH_MS);
    expect(
      await within(section()).findByText("1 client of this account is connected."),
    ).toBeInTheDocument();

    routes[`GET ${ROUTE}`] = () => ({ status: 500, body: { detail: "database is locked" } });
    vi.advanceTimersByTime(CATTLE_DRIVE_REFRESH_MS);
    expect(
      await within(section()).findByText(/Not updated: .*database is locked/),
    ).toBeInTheDocument();
    expect(within(section()).getByText("roboherd-moocow")).toBeInTheDocument();
  });

  it("says why in words when the server fails", async () => {
    routes[`GET ${ROUTE}`] = () => ({ status: 503, body: { detail: "database is down" } });
    renderPanel();

    expect(
      await within(section()).findByText(
        "Could not load Cattle Drive: The server is not answering (HTTP 503: database is down)",
      ),
    ).toBeInTheDocument();
  });
});
