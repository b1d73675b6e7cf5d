import { LinearProgress, Paper, TableCell, TableRow, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { HeadedTable } from "../../components/headed-table/headed-table.tsx";
import { Moment } from "../../components/moment/index.ts";
import type { CattleDriveConnection, CattleDriveInfo } from "../../lib/wire-types.ts";
import { useCattleDrive } from "./use-cattle-drive.ts";

// In info-panels.tsx's chunk, after the Info page itself (not the first load): the third door
// besides the console and /fe, where cattle_grid's own clients (almabtrieb, roboherd bots)
// connect, and which of them are connected now. See docs/cattle-drive.md.

const CATTLE_DRIVE_TITLE = "Cattle Drive";
const TITLES = ["Transport", "Client", "Connected since", "Address"] as const;

/** The section "Cattle Drive" of the Info page, for the signed-in account `accountName`. */
export default function CattleDrivePanel({ accountName }: { accountName: string }) {
  const { drive, stale } = useCattleDrive();
  return (
    <CattleDriveSection>
      {drive.state === "loading" && <CattleDriveLoading />}
      {drive.state === "unsupported" && (
        <Typography color="text.secondary">
          Cattle Drive is not reported there: the upstream server has no /fe/account/cattle-drive.
        </Typography>
      )}
      {drive.state === "failed" && (
        <Typography color="error">Could not load Cattle Drive: {drive.reason}</Typography>
      )}
      {drive.state === "ready" && (
        <>
          <Doors drive={drive.drive} accountName={accountName} />
          <Connections drive={drive.drive} />
          {stale && (
            <Typography variant="body2" color="error">
              Not updated: {stale}
            </Typography>
          )}
        </>
      )}
    </CattleDriveSection>
  );
}

function CattleDriveSection({ children }: { children: ReactNode }) {
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby="cattle-drive-title"
      sx={{ p: 2, mb: 3 }}
    >
      <Typography id="cattle-drive-title" component="h2" variant="h6" gutterBottom>
        {CATTLE_DRIVE_TITLE}
      </Typography>
      {children}
    </Paper>
  );
}

function CattleDriveLoading() {
  return (
    <>
      <Typography>Loading Cattle Drive...</Typography>
      <LinearProgress aria-label="Loading Cattle Drive" sx={{ mt: 1 }} />
    </>
  );
}

function Doors({ drive, accountName }: { drive: CattleDriveInfo; accountName: string }) {
  return (
    <>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        cattle_grid&apos;s own clients (almabtrieb, roboherd bots) connect here.
      </Typography>
      {drive.websocket ? (
        <Typography variant="body2">
          MQTT 5 over WebSocket: <code>{drive.websocket.url}</code>, as{" "}
          <code>{connectionString(drive.websocket.url, accountName)}</code>
        </Typography>
      ) : (
        <Typography variant="body2">MQTT 5 over WebSocket: not served.</Typography>
      )}
      {drive.amqp ? (
        <Typography variant="body2">
          AMQP: <code>{drive.amqp.url}</code>, exchange <code>{drive.amqp.exchange}</code>
        </Typography>
      ) : (
        <Typography variant="body2">
          AMQP: not served (<code>corral serve --amqp URL</code> serves it through RabbitMQ).
        </Typography>
      )}
    </>
  );
}

function Connections({ drive }: { drive: CattleDriveInfo }) {
  const hidden = drive.amqpConnectionsKnown === false && (
    <Typography variant="body2" color="text.secondary">
      Clients connected over AMQP are not listed: RabbitMQ holds their connections.
    </Typography>
  );
  if (drive.connections.length === 0) {
    return (
      <>
        <Typography variant="body2" sx={{ mt: 1 }}>
          No client of this account is connected.
        </Typography>
        {hidden}
      </>
    );
  }
  return (
    <>
      <Typography variant="body2" sx={{ mt: 1 }}>
        {drive.connections.length === 1
          ? "1 client of this account is connected."
          : `${drive.connections.length} clients of this account are connected.`}
      </Typography>
      <HeadedTable label="Connected Cattle Drive clients" titles={TITLES}>
        {drive.connections.map((connection) => (
          <ConnectionRow key={`${connection.client} ${connection.since}`} connection={connection} />
        ))}
      </HeadedTable>
      {hidden}
    </>
  );
}

function ConnectionRow({ connection }: { connection: CattleDriveConnection }) {
  return (
    <TableRow>
      <TableCell>{connection.transport === "websocket" ? "WebSocket" : "AMQP"}</TableCell>
      <TableCell>{connection.client}</TableCell>
      <TableCell>
        <Moment at={connection.since} />
      </TableCell>
      <TableCell>{connection.address ?? "unknown"}</TableCell>
    </TableRow>
  );
}

/** What almabtrieb and roboherd take: the URL with the account's name and a password in it. */
function connectionString(url: string, accountName: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${encodeURIComponent(accountName)}:PASSWORD@${parsed.host}${parsed.pathname}`;
  } catch {
    return url;
  }
}
