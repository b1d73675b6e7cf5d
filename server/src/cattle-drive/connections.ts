// Who is connected over Cattle Drive, per account, in this process: what GET
// /fe/account/cattle-drive lists and what the per-account connection bound counts.

export type DriveTransport = "websocket" | "amqp";

export interface DriveConnection {
  transport: DriveTransport;
  /** The client's own name for itself (MQTT client id), or what the transport knows of it. */
  client: string;
  /** ISO-8601. */
  since: string;
  address: string | null;
}

export interface ConnectionRegistry {
  /** Records a connection; the returned function forgets it. */
  add(accountId: number, connection: DriveConnection): () => void;
  list(accountId: number): DriveConnection[];
  count(accountId: number): number;
}

export function createConnectionRegistry(): ConnectionRegistry {
  const byAccount = new Map<number, Set<DriveConnection>>();
  return {
    add(accountId, connection) {
      let set = byAccount.get(accountId);
      if (!set) byAccount.set(accountId, (set = new Set()));
      set.add(connection);
      return () => {
        set.delete(connection);
        if (set.size === 0 && byAccount.get(accountId) === set) byAccount.delete(accountId);
      };
    },
    list: (accountId) =>
      [...(byAccount.get(accountId) ?? [])].sort((a, b) => a.since.localeCompare(b.since)),
    count: (accountId) => byAccount.get(accountId)?.size ?? 0,
  };
}
