// The trigger routes of docs/api.md#actor for component tests: body checks with FastAPI's 422,
// `Corral-Trigger-Id` on a 202, trigger records and redelivery. Tests drive a record through its
// states with `plan` (one step per poll) or by replacing it in `records`.
import { TRIGGER_ID_HEADER, type TriggerRecord } from "../lib/trigger-record.ts";
import type { FeCall, FeRoutes } from "./fe-server.ts";

export type TriggerBook = {
  records: Map<string, TriggerRecord>;
  /** Applied to a record on each GET of it, in order; the record stays as the last step left it. */
  plan: Array<Partial<TriggerRecord>>;
  /** Every redeliver request: the trigger id and the body. */
  redeliveries: Array<{ id: string; inbox?: string }>;
  /** Whether POST answers 202 without the header, as a real cattle_grid does. */
  proxyMode: boolean;
  /** GETs answered so far, per trigger id: the next step of `plan` to apply. */
  polls: Map<string, number>;
};

export function createTriggerBook(plan: Array<Partial<TriggerRecord>> = []): TriggerBook {
  return { records: new Map(), plan, redeliveries: [], proxyMode: false, polls: new Map() };
}

/** The routes, for callers `guard` lets in; `book` is read on each call, so tests can swap it. */
export function triggerRoutes(
  bookOf: () => TriggerBook,
  guard: (call: FeCall) => boolean,
  unauthorized: { status: number; body: unknown },
): FeRoutes {
  return {
    "POST /actor/trigger/:method": (call) => {
      if (!guard(call)) return unauthorized;
      const book = bookOf();
      const body = call.body as Record<string, unknown>;
      const problems = checkBody(call.params.method, body);
      if (problems.length > 0) return { status: 422, body: { detail: problems } };
      if (book.proxyMode) return { status: 202, body: null };
      const id = `t-${book.records.size + 1}`;
      book.records.set(id, {
        id,
        method: call.params.method,
        actor: String(body.actor),
        receivedAt: new Date().toISOString(),
        state: "queued",
        error: null,
        deliveries: [],
        events: [],
      });
      return { status: 202, body: null, headers: { [TRIGGER_ID_HEADER]: id } };
    },
    "GET /actor/triggers/:id": (call) => {
      if (!guard(call)) return unauthorized;
      const book = bookOf();
      const record = book.records.get(call.params.id);
      if (!record) return { status: 404, body: { detail: "No such trigger" } };
      const step = book.polls.get(record.id) ?? 0;
      const next = step < book.plan.length ? { ...record, ...book.plan[step] } : record;
      book.polls.set(record.id, step + 1);
      book.records.set(record.id, next);
      return { status: 200, body: next };
    },
    "POST /actor/triggers/:id/redeliver": (call) => {
      if (!guard(call)) return unauthorized;
      const book = bookOf();
      const record = book.records.get(call.params.id);
      if (!record) return { status: 404, body: { detail: "No such trigger" } };
      const inbox = (call.body as { inbox?: string } | undefined)?.inbox;
      book.redeliveries.push({ id: record.id, inbox });
      const deliveries = record.deliveries.map((delivery) =>
        (inbox === undefined || delivery.inbox === inbox) &&
        (delivery.state === "failed" || delivery.state === "retrying")
          ? { ...delivery, state: "queued" as const, nextAttemptAt: null }
          : delivery,
      );
      book.records.set(record.id, { ...record, deliveries });
      return { status: 202, body: null };
    },
  };
}

/**
 * A few of the per-method checks the server makes before answering
 * (docs/api.md#post-feactortriggermethod).
 */
function checkBody(method: string, body: Record<string, unknown>) {
  const problems: Array<{ loc: Array<string | number>; msg: string; type: string }> = [];
  const needsData = ["send_message", "publish_object", "publish_activity"].includes(method);
  const data = body.data;
  if (needsData && (typeof data !== "object" || data === null || Array.isArray(data))) {
    problems.push({ loc: ["body", "data"], msg: "must be a JSON object", type: "object_type" });
  }
  if (method === "update_actor" && body.profile !== undefined) {
    if (typeof body.profile !== "object" || body.profile === null) {
      problems.push({
        loc: ["body", "profile"],
        msg: "must be a JSON object",
        type: "object_type",
      });
    }
  }
  return problems;
}
