import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setFeBaseUrl } from "../../lib/fe-client.ts";
import { resetUserStore, useUserStore } from "../../lib/user-store.ts";
import { startFeServer, type FeServer } from "../../test/fe-server.ts";
import { renderConsole } from "../../test/render-console.tsx";
import { signIn } from "../../test/signed-in.ts";
import { account, alice, bob, specRoutes } from "../../test/spec-fe.ts";
import {
  LOOKUP_HISTORY_KEY,
  readLookupHistory,
  resetLookupHistory,
  useLookupHistory,
} from "./lookup-history.ts";

let fe: FeServer;
/** Lookups of URIs in here wait until the test releases them. */
const held = new Map<string, () => void>();
const versions: Record<string, unknown> = {};
const note = "https://remote.example/notes/1";
const author = "https://remote.example/users/dana";

beforeAll(async () => {
  fe = await startFeServer({
    ...specRoutes(),
    "POST /actor/lookup": async ({ body }) => {
      const { uri } = body as { uri: string };
      if (uri.startsWith("https://slow.example/")) {
        await new Promise<void>((resolve) => held.set(uri, resolve));
      }
      if (uri in versions) return { status: 200, body: { raw: versions[uri] } };
      if (uri === "@dana@remote.example") return { status: 200, body: { raw: { id: author } } };
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
  resetLookupHistory();
  fe.calls.length = 0;
});

/** The lookups the user asked for (not the top bar's lookup of the current actor as itself). */
function lookups() {
  return fe.calls.filter((call) => {
    const body = call.body as { uri?: string; actorId?: string };
    return call.path === "/actor/lookup" && body.uri !== body.actorId;
  });
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

  it("looks the URI up when Enter is pressed in the field", async () => {
    signIn();
    renderConsole("/lookup");
    const user = userEvent.setup();

    await user.type(screen.getByRole("textbox", { name: "URI" }), `${note}{Enter}`);

    expect(await screen.findByText(author)).toBeInTheDocument();
    await user.tab();
    expect(lookups()).toHaveLength(1);
  });

  it("shows a progress bar while a lookup runs and hides the previous result meanwhile", async () => {
    signIn();
    renderConsole(`/lookup?uri=${encodeURIComponent(note)}`);
    expect(await screen.findByText(author)).toBeInTheDocument();
    const user = userEvent.setup();
    const field = screen.getByRole("textbox", { name: "URI" });

    await user.clear(field);
    await user.type(field, "https://slow.example/a{Enter}");

    expect(await screen.findByRole("progressbar")).toBeInTheDocument();
    expect(screen.queryByText(author)).not.toBeInTheDocument();
    await waitFor(() => expect(held.has("https://slow.example/a")).toBe(true));
    held.get("https://slow.example/a")!();
    expect(await screen.findByRole("link", { name: "https://slow.example/a" })).toBeInTheDocument();
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
  });

  it("keeps recent lookups across reloads, newest first, and runs one again on a click", async () => {
    signIn();
    const first = renderConsole(`/lookup?uri=${encodeURIComponent(note)}`);
    expect(await screen.findByText(author)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(
      screen.getByRole("textbox", { name: "URI" }),
      "{Control>}a{/Control}https://gone.example/x{Enter}",
    );
    await screen.findByRole("alert");
    expect(JSON.parse(localStorage.getItem(LOOKUP_HISTORY_KEY)!)).toHaveLength(2);
    first.unmount();
    // What a reload does: the history is read back from localStorage.
    useLookupHistory.setState({ recent: [] });
    useLookupHistory.setState({ recent: readLookupHistory() });
    renderConsole("/lookup");
    const list = within(screen.getByRole("region", { name: "Recent lookups" }));
    const entries = list.getAllByRole("listitem").map((item) => item.textContent);
    expect(entries[0]).toContain("https://gone.example/x");
    expect(entries[1]).toContain(note);

    await user.click(list.getByRole("button", { name: note }));

    expect(await screen.findByText(author)).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "URI" })).toHaveValue(note);
  });

  it("compares two lookups of an actor, before and after it changed, path by path", async () => {
    const bobUri = "https://v.example/bob";
    versions[bobUri] = { id: bobUri, name: "Bob", summary: "old" };
    signIn();
    renderConsole(`/lookup?uri=${encodeURIComponent(bobUri)}`);
    expect(await screen.findByText('"Bob"')).toBeInTheDocument();
    const user = userEvent.setup();
    const field = screen.getByRole("textbox", { name: "URI" });
    await user.type(field, "{Enter}");
    await waitFor(() => expect(lookups()).toHaveLength(2));
    const list = within(screen.getByRole("region", { name: "Recent lookups" }));
    // The same URI with the same document is not listed twice.
    expect(list.getAllByRole("listitem")).toHaveLength(1);
    versions[bobUri] = { id: bobUri, name: "Robert", icon: "i.png" };
    await user.type(field, "{Enter}");
    expect(await screen.findByText('"Robert"')).toBeInTheDocument();

    const [newer, older] = list.getAllByRole("button", { name: "Compare" });
    await user.click(older!);
    expect(older).toHaveAttribute("aria-pressed", "true");
    await user.click(newer!);

    const changes = within(await screen.findByRole("list", { name: "Changed paths" }));
    expect(changes.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      'added icon: "i.png"',
      'changed name: "Bob" → "Robert"',
      'removed summary: "old"',
    ]);
  });

  it("leaving the field looks up again: a changed document is a second entry to compare", async () => {
    const carolUri = "https://v.example/carol";
    versions[carolUri] = { id: carolUri, name: "Carol" };
    signIn();
    renderConsole("/lookup");
    const user = userEvent.setup();
    await typeAndLeave(carolUri);
    expect(await screen.findByText('"Carol"')).toBeInTheDocument();
    versions[carolUri] = { id: carolUri, name: "Caroline" };

    await user.click(screen.getByRole("textbox", { name: "URI" }));
    await user.tab();

    expect(await screen.findByText('"Caroline"')).toBeInTheDocument();
    expect(lookups()).toHaveLength(2);
    const list = within(screen.getByRole("region", { name: "Recent lookups" }));
    expect(list.getAllByRole("button", { name: "Compare" })).toHaveLength(2);
  });

  it("shows a curl line for a handle that requests the id it resolved to", async () => {
    signIn();
    renderConsole("/lookup");
    const user = userEvent.setup();

    await user.type(screen.getByRole("textbox", { name: "URI" }), "@dana@remote.example{Enter}");

    await waitFor(() =>
      expect(screen.getByTestId("curl-example")).toHaveTextContent(
        `curl -H 'Accept: application/activity+json' '${author}'`,
      ),
    );
  });
});
