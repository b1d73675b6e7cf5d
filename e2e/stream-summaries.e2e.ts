import { expect, test } from "./harness/fixtures.ts";
import { eventually, openFromDrawer } from "./harness/console-ui.ts";
import { buildCreateNote } from "./harness/fe-api.ts";
import { messageTrees, signInWithTwoActors } from "./harness/stream-events.ts";

// What a stream's summary line and tree say of an error (docs: e2e/README.md maps this file).

test("an error's summary line names the method, the target host and the reason; its tree shows the failed body as JSON", async ({
  page,
  account,
  corral,
}) => {
  const { api, sender } = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Error");
  const target = "https://no-such-host.invalid/users/x";
  await api.trigger("send_message", {
    actor: sender,
    data: buildCreateNote(sender, target, "to nowhere"),
  });
  const summary = page.getByTestId("message-summary").first();
  // Without a DNS server the resolver answers "try again" instead of "no such name".
  await eventually(() => summary.textContent()).toMatch(
    /send_message→ no-such-host\.invalid: the name (does not resolve|could not be resolved now)/,
  );
  const tree = messageTrees(page).first();
  // A branch of the tree (an object with its own toggle), not an escaped string.
  await tree.getByRole("button", { name: /^(Collapse|Expand) original_message_body$/ }).waitFor();
  expect(await tree.textContent()).not.toContain('{\\"');
});
