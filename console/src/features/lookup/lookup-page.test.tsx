import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setFeBaseUrl } from "../../lib/fe-client.ts";
import { resetUserStore, useUserStore } from "../../lib/user-store.ts";
import { startFeServer, type FeServer } from "../../test/fe-server.ts";
import { renderConsole } from "../../test/render-console.tsx";
import { signIn } from "../../test/signed-in.ts";
import { account, alice, bob, specRoutes } from "../../test/spec-fe.ts";

let fe: FeServer;
const note = "https://remote.example/notes/1";
const author = "https://remote.example/users/dana";

beforeAll(async () => {
  fe = await startFeServer({
    ...specRoutes(),
    "POST /actor/lookup": ({ body }) => {
      const { uri } = body as { uri: string };
      if (uri === "https://gone.example/x") {
        return { status: 200, body: { raw: null, error: "remote answered 410 Gone" } };
      }
      return { status: 200, body: { raw: { id: uri, type: "Note", attributedTo: author } } };
    },
  });
  setFeBaseUrl(fe.url);
});
afterAll(() => fe.close());
beforeEach(() => {
  resetUserStore();
  fe.calls.length = 0;
});

function lookups() {
  return fe.calls.filter((call) => call.path === "/actor/lookup");
}

async function typeAndLeave(uri: string) {
  const user = userEvent.setup();
  await user.type(screen.getByRole("textbox", { name: "URI" }), uri);
  await user.tab();
}

describe("lookup page", () => {
  it("shows Loading... until a current actor exists", () => {
    useUserStore.setState({ token: account.token });
    renderConsole("/lookup");

    expect(screen.getByText("Loading...")).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "URI" })).not.toBeInTheDocument();
  });

  it("looks the URI up as the current actor when the field loses focus and puts it in ?uri", async () => {
    signIn(undefined, bob.id);
    const { currentPath } = renderConsole("/lookup");

    await typeAndLeave(note);

    await waitFor(() => expect(lookups()).toHaveLength(1));
    expect(lookups()[0]!.body).toEqual({ uri: note, actorId: bob.id });
    expect(lookups()[0]!.authorization).toBe(`Bearer ${account.token}`);
    expect(currentPath()).toBe(`/lookup?uri=${encodeURIComponent(note)}`);
    expect(await screen.findByText(author)).toBeInTheDocument();
  });

  it("does not look anything up while the user is still typing", async () => {
    signIn();
    renderConsole("/lookup");
    const user = userEvent.setup();

    await user.type(screen.getByRole("textbox", { name: "URI" }), note);

    expect(lookups()).toHaveLength(0);
  });

  it("looks up the uri query parameter on arrival and fills the field", async () => {
    signIn();
    renderConsole(`/lookup?uri=${encodeURIComponent(note)}`);

    expect(await screen.findByText(author)).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "URI" })).toHaveValue(note);
    expect(lookups().map((call) => call.body)).toEqual([{ uri: note, actorId: alice.id }]);
  });

  it("shows a curl line asking for the URI as activity+json", async () => {
    signIn();
    renderConsole("/lookup");

    await typeAndLeave(note);

    const curl = screen.getByTestId("curl-example");
    expect(curl).toHaveTextContent(`curl -H 'Accept: application/activity+json' '${note}'`);
  });

  it("looks up a URL clicked in the result tree", async () => {
    signIn();
    const { currentPath } = renderConsole(`/lookup?uri=${encodeURIComponent(note)}`);
    const user = userEvent.setup();

    await user.click(await screen.findByRole("link", { name: author }));

    await waitFor(() =>
      expect(lookups().map((call) => call.body)).toContainEqual({
        uri: author,
        actorId: alice.id,
      }),
    );
    expect(screen.getByRole("textbox", { name: "URI" })).toHaveValue(author);
    expect(currentPath()).toBe(`/lookup?uri=${encodeURIComponent(author)}`);
  });

  it("says why when the server could not fetch the object", async () => {
    signIn();
    renderConsole("/lookup");

    await typeAndLeave("https://gone.example/x");

    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText(/remote answered 410 Gone/)).toBeInTheDocument();
  });
});
