import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { render, screen, within } from "@testing-library/react";
import { Providers } from "../../app/providers.tsx";
import { setFeBaseUrl } from "../../lib/fe-client.ts";
import { getStreamStore } from "../../lib/streams/stream-store.ts";
import { resetUserStore } from "../../lib/user-store.ts";
import type { ActivityMinute } from "../../lib/wire-types.ts";
import { startFeServer, type FeRoutes, type FeServer } from "../../test/fe-server.ts";
import { signIn } from "../../test/signed-in.ts";
import { account } from "../../test/spec-fe.ts";
import ActivityPanel from "./activity-panel.tsx";

let fe: FeServer;
const routes: FeRoutes = {};
const minute = (at: string, incoming: number, outgoing: number, error: number): ActivityMinute => ({
  at,
  incoming,
  outgoing,
  error,
});
const counts = [
  minute("2026-11-25T10:00:00.000Z", 3, 0, 2),
  minute("2026-11-25T10:01:00.000Z", 1, 1, 0),
];

beforeAll(async () => {
  fe = await startFeServer(routes);
  setFeBaseUrl(fe.url);
});
afterAll(() => fe.close());
beforeEach(() => {
  resetUserStore();
  signIn();
  fe.calls.length = 0;
  routes["GET /account/activity"] = () => ({ status: 200, body: { minutes: counts } });
  // jsdom has no canvas: the chart itself fails there (and says so); browsers draw it (e2e).
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

function figure() {
  return screen.getByRole("figure", { name: "Activity, last hour" });
}

describe("Activity, last hour", () => {
  it("waits visibly, then sums each series of the last 60 minutes", async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    routes["GET /account/activity"] = async () => {
      await held;
      return { status: 200, body: { minutes: counts } };
    };
    render(
      <Providers>
        <ActivityPanel />
      </Providers>,
    );

    expect(
      within(figure()).getByRole("progressbar", { name: "Loading activity" }),
    ).toBeInTheDocument();
    answer();

    expect(
      await within(figure()).findByText("In the last hour: 4 incoming, 1 outgoing, 2 error"),
    ).toBeInTheDocument();
    expect(within(figure()).queryByText("Loading activity...")).not.toBeInTheDocument();
    const call = fe.calls.find((c) => c.path === "/account/activity")!;
    expect(call.query.get("minutes")).toBe("60");
    expect(call.authorization).toBe(`Bearer ${account.token}`);
  });

  it("says the upstream does not report activity when the route is missing (proxy mode)", async () => {
    delete routes["GET /account/activity"];
    render(
      <Providers>
        <ActivityPanel />
      </Providers>,
    );

    expect(
      await within(figure()).findByText(/The upstream server does not report activity/),
    ).toBeInTheDocument();
  });

  it("says why in words when the server fails", async () => {
    routes["GET /account/activity"] = () => ({ status: 503, body: { detail: "database is down" } });
    render(
      <Providers>
        <ActivityPanel />
      </Providers>,
    );

    expect(
      await within(figure()).findByText(
        "Could not load the activity: The server is not answering (HTTP 503: database is down)",
      ),
    ).toBeInTheDocument();
  });

  it("asks again soon after a stream badge changes", async () => {
    render(
      <Providers>
        <ActivityPanel />
      </Providers>,
    );
    await within(figure()).findByText(/In the last hour/);
    const before = fe.calls.length;

    routes["GET /account/activity"] = () => ({
      status: 200,
      body: { minutes: [minute(counts[1]!.at, 5, 1, 0)] },
    });
    const incoming = getStreamStore("incoming");
    incoming.getState().add({ event_type: "incoming" }, "badge-1");
    await incoming.whenIdle();

    expect(
      await within(figure()).findByText(/5 incoming/, {}, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(fe.calls.length).toBe(before + 1);
  });
});
