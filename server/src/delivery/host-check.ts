import { connect as connectTcp, isIP, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import { listActors } from "../actors/index.ts";
import { isPublicAddress, privateAddressReason } from "../activitypub/addresses.ts";
import { loadSigner } from "../activitypub/local-keys.ts";
import { outgoingOf } from "../activitypub/outgoing.ts";
import { idOf, isObject } from "../activitypub/parse.ts";
import { signedGet } from "../activitypub/signing.ts";
import { resolveWithDns } from "../activitypub/pinned-lookup.ts";
import type { Services } from "../services.ts";
import { listOurOrigins, isOurHost } from "../activitypub/origins.ts";
import { findKnownActorOn } from "./host-check.store.ts";
import { checkWebFinger } from "./host-check-webfinger.ts";
import type { HostCheck, HostCheckLine, HostCheckStep } from "./host-health.ts";
import { originOf, readNodeInfo } from "./host-software.ts";

// POST /fe/account/hosts/{host}/check (docs/host-check.md): resolve, connect, NodeInfo, a signed
// GET of an actor we know there, WebFinger of that actor's acct: (its name comes from the
// document, hence this order), a GET of its inbox, stopping at the first that fails; every
// request passes the private-address rule; 30 s in all. A host that is this server is said so.

const STEP_MS = 4_500;

const WORDS: Record<HostCheckStep["step"], string> = {
  resolve: "resolving its name",
  connect: "connecting to it",
  nodeinfo: "reading its NodeInfo",
  webfinger: "WebFinger",
  actor: "the signed GET of its actor",
  inbox: "the GET of its inbox",
};

type Outcome = { ok: true; detail: string; skipped?: boolean } | { ok: false; detail: string };

/** `progress` hears each step as it starts and as it completes (the streamed answer). */
export async function checkHost(
  services: Services,
  accountId: number,
  host: string,
  progress: (line: HostCheckLine) => void = () => {},
): Promise<HostCheck> {
  const steps: HostCheckStep[] = [];
  const run = async (step: HostCheckStep["step"], work: () => Promise<Outcome>) => {
    progress({ running: step });
    const started = performance.now();
    let outcome: Outcome;
    try {
      outcome = await work();
    } catch (error) {
      outcome = { ok: false, detail: (error as Error).message };
    }
    const done: HostCheckStep = {
      step,
      ok: outcome.ok,
      ms: Math.round(performance.now() - started),
      detail: outcome.detail,
    };
    steps.push(done);
    progress(done);
    return outcome.ok;
  };
  if (isOurHost(services, host)) {
    const own = listOurOrigins(services).find((o) => new URL(o).host === host.toLowerCase());
    await run("resolve", async () => ({
      ok: true,
      detail: `${host} is this server: ${own} is one of its base URLs`,
    }));
    return {
      steps,
      verdict: `${host} is this server (${own} is one of its base URLs): its actors are served here, so there is no other host to check.`,
    };
  }
  const outgoing = outgoingOf(services);
  const origin = await originOf(services, accountId, host);
  const url = new URL(origin);
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  let addresses: string[] = [];
  let actorId: string | undefined;
  let inbox: string | undefined;
  let actorDocument: Record<string, unknown> | undefined;
  let signer: Awaited<ReturnType<typeof signerFor>>;

  const passed =
    (await run("resolve", async () => {
      addresses =
        isIP(hostname) !== 0 ? [hostname] : await (outgoing.resolve ?? resolveWithDns)(hostname);
      if (addresses.length === 0)
        return { ok: false, detail: `${hostname} resolves to no address` };
      const privateOne = addresses.find((a) => !isPublicAddress(a));
      if (privateOne && !outgoing.allowPrivate)
        return { ok: false, detail: privateAddressReason(origin, `${hostname} (${privateOne})`) };
      return { ok: true, detail: `${hostname} resolves to ${addresses.join(", ")}` };
    })) &&
    (await run("connect", async () => {
      await openConnection(addresses[0]!, port, url.protocol === "https:" ? hostname : null);
      return {
        ok: true,
        detail: `connected to ${addresses[0]} port ${port}${url.protocol === "https:" ? " (TLS)" : ""}`,
      };
    })) &&
    (await run("nodeinfo", async () => {
      const found = await readNodeInfo(services, origin);
      if (!found.ok) return { ok: false, detail: found.reason };
      const { name, version } = found.software;
      const note = found.note ? ` (${found.note})` : "";
      return { ok: true, detail: `${name}${version ? ` ${version}` : ""}${note}` };
    })) &&
    (await run("actor", async () => {
      actorId = await findKnownActorOn(services.db, accountId, host);
      if (!actorId)
        return { ok: true, skipped: true, detail: `skipped: no actor of ${host} known here` };
      signer = await signerFor(services, accountId);
      const answer = await signedGet(actorId, signer?.signer ?? null, {
        outgoing,
        timeoutMs: STEP_MS,
      });
      if (!answer.ok) return { ok: false, detail: answer.reason };
      if (!isObject(answer.document)) return { ok: false, detail: `${actorId} is no JSON object` };
      actorDocument = answer.document;
      inbox = idOf(answer.document.inbox);
      if (!inbox) return { ok: false, detail: `${actorId} names no inbox` };
      return {
        ok: true,
        detail: `${actorId} signed as ${signer?.actorId ?? "nobody"}: inbox ${inbox}`,
      };
    })) &&
    (await run("webfinger", async () => {
      if (!actorId || !actorDocument)
        return { ok: true, skipped: true, detail: "skipped: no actor known" };
      return checkWebFinger(outgoing, origin, actorId, actorDocument, STEP_MS);
    })) &&
    (await run("inbox", async () => {
      if (!inbox) return { ok: true, skipped: true, detail: "skipped: no actor known" };
      const answer = await signedGet(inbox, signer?.signer ?? null, {
        outgoing,
        timeoutMs: STEP_MS,
        accept: "*/*",
      });
      if (answer.ok || (answer.status !== undefined && answer.status < 400))
        return { ok: true, detail: `${inbox} answered ${answer.status}` };
      // ActivityPub asks an inbox to take POSTs only: 401 (Mastodon), 404 or 405 to a GET says the
      // host is there and answering; a 403, a 5xx or no answer at all is a fault.
      if (answer.status !== undefined && GET_REFUSALS.has(answer.status))
        return {
          ok: true,
          detail: `${inbox} answered ${answer.status} to a GET, which is fine: an inbox need only take POSTs`,
        };
      return { ok: false, detail: answer.reason };
    }));

  const failed = steps.find((s) => !s.ok);
  const verdict =
    !passed && failed
      ? `${capitalise(WORDS[failed.step])} failed: ${failed.detail}`
      : `${host} passed every step: ${steps
          .filter((s) => !s.detail.startsWith("skipped"))
          .map((s) => WORDS[s.step])
          .join(
            ", ",
          )}${steps.some((s) => s.detail.startsWith("skipped")) ? " (no actor of it known here: WebFinger and the actor's checks skipped)" : ""}.`;
  return { steps, verdict };
}

/** 401, 404 and 405 to a GET of an inbox: it is there, it just takes POSTs only. */
const GET_REFUSALS = new Set([401, 404, 405]);

/** The account's first actor and its key: the check's signed GETs go out as it. */
async function signerFor(services: Services, accountId: number) {
  const as = (await listActors(services.db, accountId)).find((a) => !a.deleted);
  const key = as ? await loadSigner(services.db, as.id) : null;
  return as && key ? { actorId: as.id, signer: key } : undefined;
}

const capitalise = (text: string) => text[0]!.toUpperCase() + text.slice(1);

/** Opens (and closes) a TCP connection, with TLS when `servername` is given. */
function openConnection(address: string, port: number, servername: string | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket: Socket = servername
      ? connectTls({ host: address, port, servername })
      : connectTcp({ host: address, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no connection to ${address} port ${port} within ${STEP_MS / 1000} s`));
    }, STEP_MS);
    socket.once(servername ? "secureConnect" : "connect", () => {
      clearTimeout(timer);
      socket.end();
      resolve();
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new Error(`could not connect to ${address} port ${port}: ${error.code ?? error.message}`),
      );
    });
  });
}
