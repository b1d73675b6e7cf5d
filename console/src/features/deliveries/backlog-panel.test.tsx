import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import {
  deliveriesState as state,
  openDeliveries,
  serveDeliveriesFe,
} from "../../test/deliveries-ui.ts";
import { formatAge } from "./backlog-panel.tsx";

const { fe } = serveDeliveriesFe();

function valueOf(section: HTMLElement, term: string): string | null {
  return (
    within(section).getByText(term, { selector: "dt" }).nextElementSibling?.textContent ?? null
  );
}

describe("deliveries page: backlog", () => {
  it("shows what waits above the table, worst hosts first, each linked to its page", async () => {
    state.backlog = {
      waiting: 7,
      inFlight: 2,
      retrying: 3,
      nearGiveUp: 1,
      oldestWaitingAgeS: 3 * 3600 + 5 * 60,
      worstHosts: [
        { host: "mastodon.example", waiting: 5, oldestAgeS: 3 * 3600 + 5 * 60 },
        { host: "pixelfed.example", waiting: 2, oldestAgeS: 45 },
      ],
    };
    const { table } = await openDeliveries();

    const panel = await screen.findByRole("region", { name: "Backlog" });
    expect(panel.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(valueOf(panel, "Waiting")).toBe("7");
    expect(valueOf(panel, "In flight")).toBe("2");
    expect(valueOf(panel, "Retrying")).toBe("3");
    expect(valueOf(panel, "About to be given up")).toBe("1");
    expect(valueOf(panel, "Oldest waiting")).toBe("3 h 5 min");
    expect(
      within(panel)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      "mastodon.example: 5 waiting, the oldest for 3 h 5 min",
      "pixelfed.example: 2 waiting, the oldest for 45 s",
    ]);
    expect(within(panel).getByRole("link", { name: "pixelfed.example" })).toHaveAttribute(
      "href",
      "/deliveries/pixelfed.example",
    );
  });

  it("shows no panel on a server without the route, and does not ask it again", async () => {
    await openDeliveries();
    // Counted from this page's sign-in info on (a page torn down just before may still ask).
    const calls = (path: string) => {
      const all = fe().calls;
      const start = all.findIndex((call) => call.path === "/account/info");
      return start < 0 ? 0 : all.slice(start).filter((call) => call.path === path).length;
    };
    await waitFor(() => expect(calls("/account/backlog")).toBeGreaterThan(0));
    const asked = calls("/account/backlog");
    const hostsAsked = calls("/account/hosts");

    // The page keeps polling the hosts (every 50 ms here); the backlog's 404 is remembered.
    await waitFor(() => expect(calls("/account/hosts")).toBeGreaterThan(hostsAsked + 3));
    expect(calls("/account/backlog")).toBe(asked);
    expect(screen.queryByRole("region", { name: "Backlog" })).toBeNull();
  });

  it("says ages in words", () => {
    expect([
      formatAge(0),
      formatAge(59),
      formatAge(600),
      formatAge(7200),
      formatAge(93600),
    ]).toEqual(["0 s", "59 s", "10 min", "2 h", "1 d 2 h"]);
  });
});
