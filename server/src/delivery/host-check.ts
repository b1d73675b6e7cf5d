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
import { findKnownActorOn } from "./host-check.store.ts";
import type { HostCheck, HostCheckLine, HostCheckStep } from "./host-health.ts";
import { originOf, readNodeInfo } from "./host-software.ts";

// POST /fe/account/hosts/{host}/check (server.md §11, "Diagnosis"): resolve, connect, NodeInfo,
// WebFinger of an actor we know there, a signed GET of that actor, a GET of its inbox, in order,
// stopping at the first that fails; every request passes the private-address rule; 30 s in all.

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
  const outgoing = outgoingOf(services);
  const origin = await originOf(services, accountId, host);
  const url = new URL(origin);
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  let addresses: string[] = [];
  let actorId: string | undefined;
  let inbox: string | undefined;

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
      return { ok: true, detail: `${name}${version ? ` ${version}` : ""}` };
    })) &&
    (await run("webfinger", async () => {
      actorId = await findKnownActorOn(services.db, accountId, host);
      if (!actorId)
        return { ok: true, skipped: true, detail: `skipped: no actor of ${host} known here` };
      const resource = `${origin}/.well-known/webfinger?resource=${encodeURIComponent(actorId)}`;
      const answer = await signedGet(resource, null, {
        outgoing,
        timeoutMs: STEP_MS,
        accept: "application/jrd+json, application/json",
      });
      if (!answer.ok) return { ok: false, detail: answer.reason };
      const links =
        isObject(answer.document) && Array.isArray(answer.document.links)
          ? answer.document.links
          : [];
      const self = links.filter(isObject).find((l) => l.rel === "self");
      return {
        ok: true,
        detail: `${actorId}: ${typeof self?.href === "string" ? `self ${self.href}` : "no self link"}`,
      };
    })) &&
    (await run("actor", async () => {
      if (!actorId) return { ok: true, skipped: true, detail: "skipped: no actor known" };
      const as = (await listActors(services.db, accountId)).find((a) => !a.deleted);
      const signer = as ? await loadSigner(services.db, as.id) : null;
      const answer = await signedGet(actorId, signer, { outgoing, timeoutMs: STEP_MS });
      if (!answer.ok) return { ok: false, detail: answer.reason };
      inbox = isObject(answer.document) ? idOf(answer.document.inbox) : undefined;
      if (!inbox) return { ok: false, detail: `${actorId} names no inbox` };
      return { ok: true, detail: `${actorId} signed as ${as?.id ?? "nobody"}: inbox ${inbox}` };
    })) &&
    (await run("inbox", async () => {
      if (!inbox) return { ok: true, skipped: true, detail: "skipped: no actor known" };
      const as = (await listActors(services.db, accountId)).find((a) => !a.deleted);
      const signer = as ? await loadSigner(services.db, as.id) : null;
      const answer = await signedGet(inbox, signer, {
        outgoing,
        timeoutMs: STEP_MS,
        accept: "*/*",
      });
      // An inbox need not answer GET: 405 says it is there; a JSON answer is not required either.
      if (answer.ok || answer.status === 405)
        return { ok: true, detail: `${inbox} answered ${answer.ok ? answer.status : 405}` };
      if (answer.status !== undefined && answer.status < 400)
        return { ok: true, detail: `${inbox} answered ${answer.status}` };
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
