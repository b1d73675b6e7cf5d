import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import {
  deliveriesState as state,
  openDeliveries,
  useDeliveriesFe,
} from "../../test/deliveries-ui.ts";
import { formatAge } from "./backlog-panel.tsx";

const { fe } = useDeliveriesFe();

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

  it("shows no panel on a server without the route, and asks it once", async () => {
    await openDeliveries();
    await screen.findByText(/Updated/);

    expect(screen.queryByRole("region", { name: "Backlog" })).toBeNull();
    expect(fe().calls.filter((call) => call.path === "/account/backlog")).toHaveLength(1);
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
