import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setFeBaseUrl } from "../../lib/fe-client.ts";
import { startFeServer, type FeServer } from "../../test/fe-server.ts";
import { renderConsole } from "../../test/render-console.tsx";
import { chooseMethod, resetPerformState, setData } from "../../test/perform-ui.ts";
import { signIn } from "../../test/signed-in.ts";
import { alice, bob, sampleInfo, specRoutes } from "../../test/spec-fe.ts";

// The data box is checked against the method's schema before anything is sent.

const sendMessageSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { data: { type: "object", additionalProperties: {} } },
  required: ["data"],
  additionalProperties: {},
};

function infoWithSchema() {
  const info = sampleInfo();
  info.methodInformation[0] = { ...info.methodInformation[0]!, schema: sendMessageSchema };
  return info;
}

let fe: FeServer;
beforeAll(async () => {
  fe = await startFeServer(specRoutes());
  setFeBaseUrl(fe.url);
});
afterAll(() => fe.close());
beforeEach(() => {
  resetPerformState();
  fe.calls.length = 0;
  vi.spyOn(console, "log").mockImplementation(() => {});
});

const triggers = () => fe.calls.filter((call) => call.path.startsWith("/actor/trigger/"));
const activity = { type: "Create", object: { type: "Note", content: "Hi" } };

describe("the data box checked against the method's schema", () => {
  it("lists each problem by its path and keeps Perform disabled; 'Put it under data' fixes it", async () => {
    signIn(infoWithSchema());
    renderConsole("/perform");
    const user = userEvent.setup();
    await chooseMethod(user, "send_message");
    setData(JSON.stringify(activity));

    const problems = screen.getByRole("list", { name: "Problems with the data" });
    expect(
      within(problems)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["data is missing"]);
    expect(screen.getByRole("button", { name: "Perform" })).toBeDisabled();

    await user.click(screen.getByRole("button", { name: "Put it under data" }));

    const box = screen.getByRole("textbox", { name: "data" }) as HTMLTextAreaElement;
    expect(JSON.parse(box.value)).toEqual({ data: activity });
    expect(screen.queryByRole("list", { name: "Problems with the data" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Put it under data" })).toBeNull();
    expect(screen.getByText("Checked against send_message's schema: no problems.")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Perform" }));
    await waitFor(() => expect(triggers()).toHaveLength(1));
    expect(triggers()[0]!.body).toEqual({ actor: alice.id, data: activity });
  });

  it("says nothing could be checked for a method without a schema, and still sends", async () => {
    signIn();
    renderConsole("/perform");
    const user = userEvent.setup();
    await chooseMethod(user, "send_message");
    setData(JSON.stringify(activity));

    expect(
      screen.getByText(
        "The server gives no schema for send_message: nothing could be checked before sending.",
      ),
    ).toBeVisible();
    // It knows send_message takes its activity under data all the same.
    expect(screen.getByRole("button", { name: "Put it under data" })).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Perform" }));
    await waitFor(() => expect(triggers()).toHaveLength(1));
  });

  it("does not offer 'Put it under data' to a method that takes no data", async () => {
    signIn();
    renderConsole("/perform");
    const user = userEvent.setup();
    await chooseMethod(user, "update_actor");
    setData(JSON.stringify(activity));
    expect(screen.queryByRole("button", { name: "Put it under data" })).toBeNull();
  });

  it("warns before sending when data.actor is not the actor acting", async () => {
    signIn(infoWithSchema());
    renderConsole("/perform");
    const user = userEvent.setup();
    await chooseMethod(user, "send_message");
    setData(JSON.stringify({ data: { ...activity, actor: bob.id } }));

    expect(
      screen.getByText(`data.actor is ${bob.id}, not alice (${alice.id}), the actor you act as.`, {
        exact: false,
      }),
    ).toBeVisible();
    setData(JSON.stringify({ data: { ...activity, actor: alice.id } }));
    expect(screen.queryByText(/the actor you act as/)).toBeNull();
  });

  it("moves focus to the Result heading when a call is made", async () => {
    signIn(infoWithSchema());
    renderConsole("/perform");
    const user = userEvent.setup();
    await chooseMethod(user, "send_message");
    setData(JSON.stringify({ data: activity }));
    await user.click(screen.getByRole("button", { name: "Perform" }));
    await waitFor(() => expect(screen.getByRole("heading", { name: "Result" })).toHaveFocus());
  });
});
