// Which local actor `corral lookup --as …` signs as: an actor id, a handle, a bare name, or by
// default the oldest actor. Every miss says what there is instead.

import { listAccounts, listActors, listIdentifiers, parseHandle } from "./domain.ts";
import type { ActorRow, Db } from "./domain.ts";

export async function chooseActor(
  db: Db,
  wanted: string | null,
): Promise<{ actor: ActorRow; actors: ActorRow[] }> {
  const actors = await liveActors(db);
  if (actors.length === 0) {
    throw new Error("there is no actor to sign as: create one first (console: Info, Create Actor)");
  }
  if (wanted === null) return { actor: actors[0]!, actors };
  const handles = await Promise.all(actors.map((actor) => acctsOf(db, actor.id)));
  const matches = actors.filter((actor, i) => matchesActor(wanted, actor, handles[i]!));
  if (matches.length === 1) return { actor: matches[0]!, actors };
  const known = handles.map((list, i) => list[0] ?? actors[i]!.id);
  if (matches.length === 0) {
    throw new Error(`--as: no actor "${wanted}" here; there are: ${summarize(known)}`);
  }
  const ambiguous = matches.map((actor) => handles[actors.indexOf(actor)]![0] ?? actor.id);
  throw new Error(
    `--as: "${wanted}" names ${matches.length} actors (${summarize(ambiguous)}); give one`,
  );
}

/** Every actor an account owns and has not deleted, oldest first. */
async function liveActors(db: Db): Promise<ActorRow[]> {
  const perAccount = await Promise.all(
    (await listAccounts(db)).map((account) => listActors(db, account.id)),
  );
  return perAccount.flat().sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

async function acctsOf(db: Db, actorId: string): Promise<string[]> {
  const identifiers = await listIdentifiers(db, actorId);
  return identifiers.map((row) => row.identifier).filter((id) => id.startsWith("acct:"));
}

function matchesActor(wanted: string, actor: ActorRow, accts: string[]): boolean {
  if (/^https?:\/\//i.test(wanted)) return actor.id === wanted;
  const handle = parseHandle(wanted);
  if (handle) return accts.includes(`acct:${handle.user}@${handle.host}`);
  const name = wanted.replace(/^@/, "");
  return accts.some((acct) => acct.slice("acct:".length).split("@")[0] === name);
}

function summarize(items: string[]): string {
  const shown = items.slice(0, 5).join(", ");
  return items.length > 5 ? `${shown} and ${items.length - 5} more` : shown;
}
