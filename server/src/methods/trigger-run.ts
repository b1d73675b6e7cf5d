// What a running trigger hands down to the code it runs: its id, for every event and delivery it
// causes, and a count of its sends so far, so that a re-run after a crash can tell which sends
// an earlier run already committed (db/triggers.store.ts claimSend).

export interface TriggerRun {
  id: string;
  sends: number;
}

export function newTriggerRun(id: string): TriggerRun {
  return { id, sends: 0 };
}
