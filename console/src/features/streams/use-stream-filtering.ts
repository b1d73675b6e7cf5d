import { useMemo, useState } from "react";
import type { LiveMessages, StreamSource } from "./use-live-messages.ts";
import { useMessageQuery } from "./use-message-query.ts";
import { usePause } from "./use-pause.ts";
import { countRetained, unionByEvent, useServerSearch, withinRange } from "./use-server-search.ts";
import { useTypeFilter } from "./use-type-filter.ts";

/** A "From"/"To" field's local date and time in ms, or null when empty. */
export function readLocalTime(value: string): number | null {
  if (value === "") return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/**
 * What the list shows of a stream: the held messages that match the text and the time range,
 * with the server's matches (everything it keeps) once it answered, then the type filter. Paused,
 * the list stays as it was under a search too: what the server answers from after the pause
 * waits behind "N new" with the rest.
 */
export function useStreamFiltering(source: StreamSource, live: LiveMessages) {
  const { chosen, setChosen } = useTypeFilter(live.activityTypes);
  const [search, setSearch] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const range = useMemo(
    () => ({ since: readLocalTime(from), until: readLocalTime(to) }),
    [from, to],
  );
  const server = useServerSearch(source, search, range);
  const pause = usePause(live.messages, server.matches);
  const held = useMemo(() => withinRange(pause.listed, range), [pause.listed, range]);
  const query = useMemo(() => ({ text: search, activityType: "" }), [search]);
  const local = useMessageQuery(held, query);
  const serverMatches = pause.retainedListed;
  const matches = useMemo(
    () => (serverMatches ? unionByEvent(serverMatches, local.shown) : local.shown),
    [serverMatches, local.shown],
  );
  const shown = useMemo(
    () => (chosen === "" ? matches : matches.filter((m) => m.activityType === chosen)),
    [matches, chosen],
  );
  // A server search counts against what the server keeps (and what arrived since).
  const ofCount = useMemo(
    () => (server.retained ? countRetained(server.retained, live.messages) : undefined),
    [server.retained, live.messages],
  );
  return {
    chosen,
    setChosen,
    search,
    setSearch,
    from,
    setFrom,
    to,
    setTo,
    /** A text or a time range is set. */
    filtered: search.trim() !== "" || range.since !== null || range.until !== null,
    server,
    pause,
    shown,
    searching: local.searching || server.waiting,
    ofCount,
  };
}
