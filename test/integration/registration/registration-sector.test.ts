import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { CIBA_GRANT_TYPE } from "@/lib/ciba/ciba";
import { createClient } from "@/lib/clients/create-client";
import { ownSector } from "@/lib/clients/own-sector";
import { createInitialAccessToken } from "@/lib/registration/initial-access-tokens";
import { pairwiseSubject, rememberPairwiseSubject } from "@/lib/subjects/pairwise-subject";
import {
  authorize, baseUrl, createTestSubscriber, expectErrorRedirect, grant, requestFor, type Subscriber,
} from "../../support/authorize-support";
import { bcAuthorize } from "../ciba/bc-support";

/**
 * Issue 33, item 2: a self-registered client cannot claim another relying party's pairwise sector. Registering the
 * victim's redirect URI gives a sector of its own (lib/clients/own-sector.ts), so neither the victim's `sub` nor its
 * `PCR:` hints work for it: a PCR of another client is answered like an unknown one, with no masked number.
 */
type Json = Record<string, unknown>;
const VICTIM = "https://victim-rp.example.test";
let victim: { id: string; sectorIdentifier: string };
let alice: Subscriber;
let victimPcr: string;

beforeAll(async () => {
  const { client } = await createClient({ name: `Victim${Date.now()}`, redirectUris: [`${VICTIM}/cb`], scopes: ["openid"] });
  victim = client;
  alice = await createTestSubscriber();
  // alice signed in to the victim: its PCR for her is on record, with her remembered consent.
  victimPcr = await rememberPairwiseSubject({ subscriberId: alice.id, sectorIdentifier: victim.sectorIdentifier });
  await grant(alice, { id: victim.id } as Parameters<typeof grant>[1]);
});

async function register(body: Json) {
  const { token } = await createInitialAccessToken({ uses: 1, ttlSeconds: 600, label: "sector test" });
  const res = await fetch(`${baseUrl}/register`, { method: "POST", body: JSON.stringify(body),
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Json };
}

const cibaMetadata = (extra: Json = {}) => ({ redirect_uris: [`${VICTIM}/cb`], scope: "openid",
  grant_types: ["authorization_code", CIBA_GRANT_TYPE], backchannel_token_delivery_mode: "poll", ...extra });

describe("a self-registered client naming another relying party's redirect URI", () => {
  it("gets a sector of its own, never the victim's (its sub differs from the victim's PCR)", async () => {
    const [a, b] = [await register(cibaMetadata()), await register({ redirect_uris: [`${VICTIM}/cb`] })];
    for (const r of [a, b]) {
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const row = await db.client.findUniqueOrThrow({ where: { id: r.body.client_id as string } });
      expect(row.sectorIdentifier).toBe(ownSector(row.id));
      expect(pairwiseSubject({ subscriberId: alice.id, sectorIdentifier: row.sectorIdentifier })).not.toBe(victimPcr);
    }
    expect(victim.sectorIdentifier).toBe("victim-rp.example.test"); // the operator's client: its redirect URIs' host
  });

  it("cannot use the victim's PCR: the same answer as an unknown PCR at /bc-authorize and /authorize", async () => {
    const r = await register(cibaMetadata());
    const attacker = { id: r.body.client_id as string, secret: r.body.client_secret as string, redirectUri: `${VICTIM}/cb`,
      name: r.body.client_name as string };
    const unknownPcr = pairwiseSubject({ subscriberId: "nobody", sectorIdentifier: victim.sectorIdentifier });
    const ciba = async (pcr: string) => {
      const a = await bcAuthorize(attacker, { scope: "openid", login_hint: `PCR:${pcr}` });
      return { status: a.status, body: a.body };
    };
    const unknown = await ciba(unknownPcr);
    expect(unknown).toMatchObject({ status: 400, body: { error: "unknown_user_id" } });
    expect(await ciba(victimPcr)).toEqual(unknown);
    // /authorize: an error for the client, never the sign-in screen with alice's masked number.
    const errors = [];
    for (const pcr of [unknownPcr, victimPcr]) {
      const q = requestFor(attacker, { login_hint: `PCR:${pcr}`, code_challenge_method: "S256",
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" });
      errors.push(expectErrorRedirect(await authorize(q), attacker, q.state, "invalid_request"));
    }
    expect(errors[0]).toMatch(/login_hint/);
    expect(errors[1]).toBe(errors[0]);
  });

  it("is refused a sector_identifier_uri with the CIBA grant (its redirect URIs prove nothing)", async () => {
    const r = await register(cibaMetadata({ sector_identifier_uri: `${VICTIM}/sector.json` }));
    expect(r).toMatchObject({ status: 400, body: { error: "invalid_client_metadata",
      error_description: expect.stringMatching(/never uses its redirect URIs/) } });
  });
});
