import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { hashSecret } from "@/lib/crypto";
import { rateLimitWindow } from "@/lib/security/hit-rate-limit";
import { USER_CODE_TRIES, userCodeFailuresFromDynamicClients } from "@/lib/ciba/check-user-code";
import { ownSector } from "@/lib/clients/own-sector";
import { createTestSubscriber } from "../../support/authorize-support";
import { createCibaClient, pollToken } from "../../support/ciba-support";
import { enrolledDevice } from "../../support/mobile-support";
import { bcAuthorize, expectAccepted, expectError } from "./bc-support";

/**
 * Issue 33 (hardening): CIBA's `unknown_user_id` would let a self-registered client sort numbers into subscribers and
 * not. A self-registered client's number that names nobody is answered like a subscriber's: accepted with an
 * auth_req_id, pending, then expired (lib/ciba/bc-authorize/resolve-subscriber.ts); the operator's clients keep
 * `unknown_user_id`. Likewise a self-registered client's absent or wrong user_code (lib/ciba/check-user-code.ts): never
 * `missing_user_code` / `invalid_user_code`, which would tell which numbers have a user code; the operator's clients
 * keep those errors.
 */

type CibaClient = Awaited<ReturnType<typeof createCibaClient>>;

async function selfRegistered(opts: { userCodeParameter?: boolean } = {}): Promise<CibaClient> {
  const c = await createCibaClient(opts);
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

describe("a self-registered client's absent or wrong user_code", () => {
  const count = async (limit: Parameters<typeof rateLimitWindow>[0], subject: string) =>
    (await db.rateLimit.findUnique({ where: { key: rateLimitWindow(limit, subject, Date.now()).key } }))?.count ?? 0;

  it("is answered like a number nobody has: accepted, shown on no handset, never approved, expired; still counted", async () => {
    const client = await selfRegistered({ userCodeParameter: true });
    const bob = await createTestSubscriber({ attributes: { userCodeHash: await hashSecret("open-sesame") } });
    await enrolledDevice(bob);
    const stranger = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: `tel:+${nobody()}` }));
    const absent = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: `tel:+${bob.msisdn}` }));
    const wrong = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: `tel:+${bob.msisdn}`,
      user_code: "not-it" }));
    for (const r of [absent, wrong]) {
      expect(Object.keys(r.body).sort()).toEqual(Object.keys(stranger.body).sort());
      expect(r.row).toMatchObject({ status: "pending", channel: stranger.row.channel });
      expect(await db.deviceRequest.findUniqueOrThrow({ where: { backchannelRequestId: r.row.id } }))
        .toMatchObject({ subscriberId: null });
      expect(await errorOf(await pollToken(client, r.authReqId))).toBe("authorization_pending");
    }
    // Both count against the client's tries and, as failures, against the dynamic clients' daily cap.
    expect(await count(USER_CODE_TRIES, `${client.id}\n${bob.id}`)).toBe(2);
    expect(await count(userCodeFailuresFromDynamicClients(), bob.id)).toBe(2);
    await db.backchannelRequest.updateMany({ where: { id: { in: [absent.row.id, wrong.row.id] } },
      data: { expiresAt: new Date(Date.now() - 1000) } });
    for (const r of [absent, wrong]) expect(await errorOf(await pollToken(client, r.authReqId))).toBe("expired_token");
    // The right code still reaches the handset and gives its cap reservation back; the operator's clients keep the errors.
    const right = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: bob.msisdn,
      user_code: "open-sesame" }));
    expect(await db.deviceRequest.findUniqueOrThrow({ where: { backchannelRequestId: right.row.id } }))
      .toMatchObject({ subscriberId: bob.id });
    expect(await count(userCodeFailuresFromDynamicClients(), bob.id)).toBe(2);
    const operator = await createCibaClient({ userCodeParameter: true });
    expectError(await bcAuthorize(operator, { scope: "openid", login_hint: bob.msisdn }), 400, "missing_user_code");
    expectError(await bcAuthorize(operator, { scope: "openid", login_hint: bob.msisdn, user_code: "nope" }), 400,
      "invalid_user_code");
  });
});
