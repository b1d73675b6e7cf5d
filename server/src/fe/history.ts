// Reading the retained event log. GET /account/history is cattle_grid's (its shape, its figures:
// the 10 newest, or what came after `start_from`); GET /account/events/{stream} is Corral's
// addition (docs/server-guide.md#history): one stream or all of them, paged, filtered, newest first.

import { Hono, type Context } from "hono";
import { eventOfHistoryId, parseHistoryId } from "../events/history-id.ts";
import {
  historyIdOf,
  readCattleGridHistory,
  readHistory,
  type HistoryEvent,
  type HistoryFilters,
  type StreamBounds,
} from "../events/history.ts";
import { streamNames, type StreamName } from "../events/streams.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendValidationErrors } from "./errors.ts";
import { historyStreams, type ValidationError } from "./wire.ts";

const letters: Record<StreamName, string> = { incoming: "i", outgoing: "o", error: "e" };

/** The opaque cursor of `all`: one bound per stream, e.g. `i120.o7.e3`. */
function formatCursor(bounds: StreamBounds): string {
  return streamNames
    .filter((s) => bounds[s] !== undefined)
    .map((s) => `${letters[s]}${bounds[s]}`)
    .join(".");
}

function parseCursor(text: string): StreamBounds | null {
  const bounds: StreamBounds = {};
  for (const part of text.split(".")) {
    const stream = streamNames.find((s) => letters[s] === part[0]);
    if (!stream || !/^\d{1,15}$/.test(part.slice(1))) return null;
    bounds[stream] = Number(part.slice(1));
  }
  return bounds;
}

/** The JSON of one history entry; `event` is the stored text, as the stream sent it. */
function entryJson(event: HistoryEvent): string {
  return (
    `{"stream":"${event.stream}","id":${event.seq},` +
    `"receivedAt":"${new Date(event.createdAt).toISOString()}",` +
    `"history_id":"${historyIdOf(event)}","event":${event.data}}`
  );
}

function json(c: Context, text: string) {
  return c.body(text, 200, { "Content-Type": "application/json" });
}

export function createHistoryRoutes(services: Services) {
  return new Hono<FeEnv>()
    .get("/account/history", async (c) => {
      const startFrom = c.req.query("start_from") ?? "";
      // As cattle_grid: an empty start_from is none.
      const position = startFrom === "" ? null : parseHistoryId(startFrom);
      if (startFrom !== "" && !position) {
        return sendValidationErrors(c, [
          {
            loc: ["query", "start_from"],
            msg: "Input should be a valid UUID",
            type: "uuid_parsing",
            input: startFrom,
          } as ValidationError,
        ]);
      }
      const events = await readCattleGridHistory(services.db, c.get("account").id, position);
      // cattle_grid leaves history_id null here; ours is filled, to continue from with start_from.
      const items = events.map((event) =>
        JSON.stringify({ ...JSON.parse(event.data), history_id: historyIdOf(event) }),
      );
      return json(c, `{"events":[${items.join(",")}]}`);
    })
    .get("/account/events/:stream", async (c) => {
      const stream = c.req.param("stream");
      const errors: ValidationError[] = [];
      const bad = (name: string, msg: string, type = "value_error") =>
        errors.push({ loc: ["query", name], msg, type });
      if (!(historyStreams as readonly string[]).includes(stream)) {
        return sendValidationErrors(c, [
          {
            loc: ["path", "stream"],
            msg: "Input should be 'incoming', 'outgoing', 'error' or 'all'",
            type: "enum",
          },
        ]);
      }
      const all = stream === "all";
      const streams: StreamName[] = all ? [...streamNames] : [stream as StreamName];
      const query = (name: string) => {
        const value = c.req.query(name);
        return value === undefined || value === "" ? undefined : value;
      };
      const whole = (name: string) => {
        const value = query(name);
        if (value === undefined) return undefined;
        if (/^\d{1,15}$/.test(value)) return Number(value);
        bad(name, "Input should be a valid integer", "int_parsing");
        return undefined;
      };
      const bounds = (name: string): StreamBounds | undefined => {
        const value = query(name);
        if (value === undefined) return undefined;
        if (!all) {
          const seq = whole(name);
          return seq === undefined ? undefined : { [stream]: seq };
        }
        const parsed = parseCursor(value);
        if (!parsed) bad(name, "Input should be a cursor that a previous page returned as next");
        return parsed ?? undefined;
      };
      const time = (name: string) => {
        const value = query(name);
        if (value === undefined) return undefined;
        const ms = Date.parse(value);
        if (Number.isNaN(ms))
          bad(name, "Input should be a valid datetime (ISO 8601)", "datetime_parsing");
        return ms;
      };
      const limit = whole("limit") ?? 100;
      if (limit < 1 || limit > 500)
        bad("limit", "Input should be from 1 to 500", "less_than_equal");
      const before = bounds("before");
      const after = bounds("after");
      if (before && after) bad("after", "Give before or after, not both");
      const filters: HistoryFilters = {
        since: time("since"),
        until: time("until"),
        text: query("q"),
        kind: query("type"),
        actor: query("actor"),
        host: query("host"),
      };
      const id = query("id");
      if (id !== undefined) {
        const named = eventOfHistoryId(id);
        if (named && (all || named.stream === stream)) {
          streams.splice(0, streams.length, named.stream);
          filters.seq = named.seq;
        } else if (!all && /^\d{1,15}$/.test(id)) filters.seq = Number(id);
        else
          bad(
            "id",
            all ? "Input should be a history_id" : "Input should be an event id or history_id",
          );
      }
      if (errors.length > 0) return sendValidationErrors(c, errors);
      const page = await readHistory(
        services.db,
        c.get("account").id,
        streams,
        { limit, before, after },
        filters,
      );
      const next = all && page.more ? `"${formatCursor(page.bounds)}"` : "null";
      return json(
        c,
        `{"events":[${page.events.map(entryJson).join(",")}],"more":${page.more},"next":${next}}`,
      );
    });
}
