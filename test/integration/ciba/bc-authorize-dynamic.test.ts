import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ownSector } from "@/lib/clients/own-sector";
import { createTestSubscriber } from "../../support/authorize-support";
import { createCibaClient, pollToken } from "../../support/ciba-support";
import { enrolledDevice } from "../../support/mobile-support";
import { bcAuthorize, expectAccepted, expectError } from "./bc-support";

/**
 * Issue 33 (hardening): CIBA's `unknown_user_id` would let a self-registered client sort numbers into subscribers and
 * not. A self-registered client's number that names nobody is answered like a subscriber's: accepted with an
 * auth_req_id, pending, then expired (lib/ciba/bc-authorize/resolve-subscriber.ts); the operator's clients keep
 * `unknown_user_id`.
 */

type CibaClient = Awaited<ReturnType<typeof createCibaClient>>;

async function selfRegistered(): Promise<CibaClient> {
  const c = await createCibaClient();
  await db.client.update({ where: { id: c.id }, data: { registeredBy: "dynamic", sectorIdentifier: ownSector(c.id) } });
  return c;
}

/** A number no subscriber has (the fixtures use 447700900xxx). */
const nobody = () => `4470009${String(Math.floor(Math.random() * 1e5)).padStart(5, "0")}`;

const errorOf = async (res: Response) => ((await res.json()) as { error?: string }).error;

describe("a self-registered client's number that names nobody", () => {
  it("is accepted like a subscriber's, pending, then expired_token like a request nobody answers", async () => {
    const client = await selfRegistered();
    const known = await createTestSubscriber();
    await enrolledDevice(known);
    const number = nobody();
    const a = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: `MSISDN:${known.msisdn}` }));
    const b = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: `tel:+${number}` }));
    expect(Object.keys(b.body).sort()).toEqual(Object.keys(a.body).sort());
    expect({ expires_in: b.body.expires_in, interval: b.body.interval })
      .toEqual({ expires_in: a.body.expires_in, interval: a.body.interval });
    expect(b.row).toMatchObject({ status: "pending", channel: a.row.channel, clientId: client.id });
    // Shown on no handset, and audited as no one's.
    expect(await db.deviceRequest.findUniqueOrThrow({ where: { backchannelRequestId: b.row.id } }))
      .toMatchObject({ subscriberId: null });
    const audit = await db.auditEvent.findMany({ where: { clientId: client.id, type: "backchannel_requested" }, orderBy: { at: "asc" } });
    expect(audit.map((e) => [e.outcome, e.subscriberRef === null])).toEqual([["success", false], ["success", true]]);

    for (const { authReqId } of [a, b]) expect(await errorOf(await pollToken(client, authReqId))).toBe("authorization_pending");
    await db.backchannelRequest.updateMany({ where: { id: { in: [a.row.id, b.row.id] } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    for (const { authReqId } of [a, b]) expect(await errorOf(await pollToken(client, authReqId))).toBe("expired_token");
  });

  it("a bare number and MSISDN: alike; the operator's clients still get unknown_user_id", async () => {
    const client = await selfRegistered();
    for (const hint of [`MSISDN:${nobody()}`, nobody()]) {
      await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: hint }));
    }
    const operator = await createCibaClient();
    expectError(await bcAuthorize(operator, { scope: "openid", login_hint: `MSISDN:${nobody()}` }), 400, "unknown_user_id");
  });
});
