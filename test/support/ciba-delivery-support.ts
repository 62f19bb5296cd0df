import { hashedLoginHint } from "@/lib/oauth/id-token";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { sealBackchannelSecret } from "@/lib/ciba/backchannel-secrets";
import type { DeliveryMode } from "@/lib/ciba/ciba";
import { settleBackchannelRequest, type Settlement } from "@/lib/ciba/settle-backchannel-request";
import { mintToken } from "@/lib/tokens/mint-token";

/**
 * Helpers of the CIBA delivery tests (test/integration/ciba): backchannel requests written straight into the
 * database as /bc-authorize writes them (the auth_req_id's hash as id; for ping and push the auth_req_id and the
 * client_notification_token sealed), settled through settleBackchannelRequest, and a relying party's notification
 * endpoint on 127.0.0.1 that records each POST and answers as told.
 */
export async function createBackchannelRequest({ clientId, subscriberId, mode = "poll", scope =
  "openid mc_identity_phonenumber offline_access", interval = 1, expiresInMs = 120_000, loginHint =
  "MSISDN:447700900123" }: {
  clientId: string; subscriberId: string; mode?: DeliveryMode; scope?: string; interval?: number; expiresInMs?: number;
  loginHint?: string | null;
}) {
  const authReqId = mintToken().value;
  const notificationToken = randomToken(24);
  const id = sha256(authReqId);
  await db.backchannelRequest.create({ data: {
    id, clientId, subscriberId, scope, acr: "2", loginHint: loginHint === null ? null : hashedLoginHint(loginHint), deliveryMode: mode, channel: "handset", interval,
    expiresAt: new Date(Date.now() + expiresInMs),
    ...(mode === "poll" ? {} : { notificationToken: sealBackchannelSecret(notificationToken),
      authReqIdSealed: sealBackchannelSecret(authReqId) }),
  } });
  return { authReqId, id, notificationToken };
}

/** The subscriber's answer (or the expiry), as the handset and the sweep record it. */
export async function settle(requestId: string, settlement: Settlement = { outcome: "approved", acr: "2", amr: ["hwk"] },
  at = new Date()): Promise<boolean> {
  return db.$transaction((tx) => settleBackchannelRequest(tx, { requestId, settlement, at }));
}

/** The notification row of a request, once it is delivered or given up. */
export async function settledNotification(requestId: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await db.backchannelNotification.findFirst({ where: { requestId } });
    if (row && (row.deliveredAt || row.failedAt)) return row;
    if (Date.now() > deadline) throw new Error(`notification of ${requestId} not settled: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface ReceivedNotification {
  path: string; at: number; authorization?: string; contentType?: string; body: Record<string, unknown>;
}

/**
 * A relying party's notification endpoint: every POST is recorded; the answer for a path is the next of
 * `statuses.get(path)` (200 when none), or no answer at all (`"hang"`: the connection is held until closed).
 */
export async function notificationReceiver() {
  const received: ReceivedNotification[] = [];
  const statuses = new Map<string, Array<number | "hang">>();
  const held: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => { raw += c.toString(); });
    req.on("end", () => {
      const path = req.url ?? "";
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch { /* recorded empty */ }
      received.push({ path, at: Date.now(), authorization: req.headers.authorization,
        contentType: req.headers["content-type"], body });
      const status = statuses.get(path)?.shift() ?? 200;
      if (status === "hang") held.push(res);
      else res.writeHead(status, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base, received, statuses,
    /** The POSTs received at `path`. */
    at: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((r) => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
