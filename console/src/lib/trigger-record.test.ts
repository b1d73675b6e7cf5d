import { describe, expect, it } from "vitest";
import {
  isTriggerSettled,
  readTriggerRecord,
  summarizeTrigger,
  type TriggerRecord,
} from "./trigger-record.ts";

const record: TriggerRecord = {
  id: "t-1",
  method: "send_message",
  actor: "http://127.0.0.1/actor/alice",
  receivedAt: "2026-11-25T03:00:00Z",
  state: "done",
  error: null,
  deliveries: [
    {
      inbox: "https://a.example/inbox",
      state: "delivered",
      status: 202,
      attempts: 1,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: "2026-11-25T03:00:01Z",
    },
  ],
  events: [{ stream: "outgoing", id: 4 }],
  data: { data: { type: "Note", content: "hi" } },
};
const withDelivery = (change: Partial<TriggerRecord["deliveries"][0]>) => ({
  ...record,
  deliveries: [{ ...record.deliveries[0], ...change }],
});

describe("trigger record", () => {
  it("reads the shape of a trigger record as the server answers it", () => {
    expect(readTriggerRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
  });

  it("reads the call's data as null from a server that does not send it", () => {
    const { data: _data, ...older } = record;
    expect(readTriggerRecord(older)?.data).toBeNull();
  });

  it("reads left-out optional delivery fields as null", () => {
    const { lastError: _l, nextAttemptAt: _n, deliveredAt: _d, ...bare } = record.deliveries[0];
    expect(readTriggerRecord({ ...record, deliveries: [bare] })).toEqual(
      withDelivery({ deliveredAt: null }),
    );
  });

  it("refuses what is not a trigger record", () => {
    expect(readTriggerRecord(null)).toBeNull();
    expect(readTriggerRecord({ ...record, state: "accepted" })).toBeNull();
    expect(readTriggerRecord(withDelivery({ state: "lost" as never }))).toBeNull();
    expect(readTriggerRecord({ ...record, events: [{ stream: "incoming", id: 1 }] })).toBeNull();
  });

  it("is settled once the trigger ran and no delivery is queued or retrying", () => {
    expect(isTriggerSettled(record)).toBe(true);
    expect(isTriggerSettled({ ...record, state: "running" })).toBe(false);
    expect(isTriggerSettled(withDelivery({ state: "retrying" }))).toBe(false);
    expect(isTriggerSettled(withDelivery({ state: "queued" }))).toBe(false);
    expect(isTriggerSettled(withDelivery({ state: "failed" }))).toBe(true);
  });

  it("summarises the state and the deliveries by state", () => {
    expect(summarizeTrigger({ ...record, deliveries: [] })).toBe("done");
    const two = {
      ...record,
      deliveries: [...record.deliveries, withDelivery({ state: "retrying" }).deliveries[0]],
    };
    expect(summarizeTrigger(two)).toBe("done: 1 delivered, 1 retrying");
  });
});
