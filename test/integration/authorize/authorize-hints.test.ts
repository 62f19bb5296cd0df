import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, EncryptJWT, SignJWT } from "jose";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { encryptMsisdn } from "@/lib/oauth/hints/encr-msisdn";
import { pairwiseSubject, rememberPairwiseSubject } from "@/lib/subjects/pairwise-subject";
import {
  authorize, baseUrl, createTestClient, createTestSubscriber, expectCallback, expectErrorRedirect, expectInteraction,
  grant, publicKeyOf, requestFor, serverKey, signedInBrowser, type Client, type Subscriber,
} from "../../support/authorize-support";
import { redeemCode } from "../../support/codes";

let client: Client;
let alice: Subscriber;
let pcr: string;

beforeAll(async () => {
  client = await createTestClient();
  alice = await createTestSubscriber();
  pcr = await rememberPairwiseSubject({ subscriberId: alice.id, sectorIdentifier: "rp.example.test" });
});

async function idToken(claims: Record<string, unknown>) {
  const key = await serverKey("sig");
  return new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: key.kid }).sign(key.privateKey);
}

const past = () => Math.floor(Date.now() / 1000) - 7200;

describe("id_token_hint", () => {
  it("an id_token we issued (expired) names its subscriber", async () => {
    const hint = await idToken({ iss: baseUrl, aud: client.id, sub: pcr, exp: past(), iat: past() - 600 });
    const { params } = await expectInteraction(await authorize(requestFor(client, { id_token_hint: hint })));
    expect(params).toMatchObject({ hintedSubscriberId: alice.id, hintedMsisdn: alice.msisdn });
  });

  it("with prompt=none and a session of that subscriber -> code (silent re-authentication)", async () => {
    await grant(alice, client);
    const { browserId } = await signedInBrowser(alice);
    const hint = await idToken({ iss: baseUrl, aud: [client.id, "other"], sub: pcr, exp: past() });
    const q = requestFor(client, { prompt: "none", id_token_hint: hint });
    expect(expectCallback(await authorize(q, { browserId }), client, q.state).get("code")).toBeTruthy();
  });

  it("with prompt=none and no session -> login_required", async () => {
    const hint = await idToken({ iss: baseUrl, aud: client.id, sub: pcr, exp: past() });
    const q = requestFor(client, { prompt: "none", id_token_hint: hint });
    expectErrorRedirect(await authorize(q), client, q.state, "login_required");
  });

  it("a session of another subscriber does not count", async () => {
    const bob = await createTestSubscriber();
    await grant(bob, client);
    const { browserId } = await signedInBrowser(bob);
    const hint = await idToken({ iss: baseUrl, aud: client.id, sub: pcr, exp: past() });
    const q = requestFor(client, { prompt: "none", id_token_hint: hint });
    expectErrorRedirect(await authorize(q, { browserId }), client, q.state, "login_required");
  });

  it.each([
    ["another issuer", { iss: "https://elsewhere.example", sub: "PCR" }],
    ["another audience", { aud: "someone-else", sub: "PCR" }],
    ["an unknown subject", { sub: "unknown-subject" }],
  ])("%s -> login_error", async (_name, over) => {
    const claims = { iss: baseUrl, aud: client.id, exp: past(), ...over };
    if (claims.sub === "PCR") claims.sub = pcr;
    const q = requestFor(client, { id_token_hint: await idToken(claims) });
    expectErrorRedirect(await authorize(q), client, q.state, "login_error");
  });

  it("a token signed by another key -> login_error", async () => {
    const { generateKeyPair } = await import("jose");
    const { privateKey } = await generateKeyPair("RS256");
    const key = await serverKey("sig");
    const forged = await new SignJWT({ iss: baseUrl, aud: client.id, sub: pcr })
      .setProtectedHeader({ alg: "RS256", kid: key.kid }).sign(privateKey);
    const q = requestFor(client, { id_token_hint: forged });
    expectErrorRedirect(await authorize(q), client, q.state, "login_error");
  });

  it("an unsigned token -> login_error", async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const q = requestFor(client, { id_token_hint: `${b64({ alg: "none" })}.${b64({ iss: baseUrl, aud: client.id, sub: pcr })}.` });
    expectErrorRedirect(await authorize(q), client, q.state, "login_error");
  });

  it("a login_hint naming someone else than id_token_hint -> invalid_request", async () => {
    const hint = await idToken({ iss: baseUrl, aud: client.id, sub: pcr, exp: past() });
    const q = requestFor(client, { id_token_hint: hint, login_hint: "MSISDN:447000000002" });
    expectErrorRedirect(await authorize(q), client, q.state, "invalid_request");
  });
});

describe("login_hint", () => {
  it("ENCR_MSISDN made with our enc public key resolves to the number", async () => {
    const key = await serverKey("enc");
    const value = encryptMsisdn({ msisdn: alice.msisdn, publicJwk: key.publicJwk });
    const { params } = await expectInteraction(await authorize(requestFor(client, { login_hint: `ENCR_MSISDN:${value}` })));
    expect(params).toMatchObject({ hintedMsisdn: alice.msisdn, loginHint: `ENCR_MSISDN:${value}` });
  });

  it("PCR resolves through this client's sector", async () => {
    await grant(alice, client).catch(() => undefined); // issued to this client: alice's remembered consent
    const { params } = await expectInteraction(await authorize(requestFor(client, { login_hint: `PCR:${pcr}` })));
    expect(params).toMatchObject({ hintedSubscriberId: alice.id, hintedMsisdn: alice.msisdn });
  });

  it("a PCR of another sector -> invalid_request", async () => {
    const other = await createTestClient({ redirectUris: ["https://other-rp.example.test/cb"] });
    const q = requestFor(other, { login_hint: `PCR:${pcr}` });
    expectErrorRedirect(await authorize(q), other, q.state, "invalid_request");
  });

  it("a PCR of this sector issued to another client of it -> invalid_request, as an unknown PCR (no masked number)", async () => {
    // Issue 33: the operator registered a second client in the same sector; alice consented to `client` only.
    const sibling = await createTestClient({ redirectUris: ["https://rp.example.test/sibling"] });
    const unknownPcr = pairwiseSubject({ subscriberId: "nobody", sectorIdentifier: "rp.example.test" });
    const errors = [];
    for (const hint of [unknownPcr, pcr]) {
      const q = requestFor(sibling, { login_hint: `PCR:${hint}` });
      errors.push(expectErrorRedirect(await authorize(q), sibling, q.state, "invalid_request"));
    }
    expect(errors[1]).toBe(errors[0]);
    await grant(alice, sibling); // once she allows it, the PCR names her for it too
    const { params } = await expectInteraction(await authorize(requestFor(sibling, { login_hint: `PCR:${pcr}` })));
    expect(params).toMatchObject({ hintedSubscriberId: alice.id, hintedMsisdn: alice.msisdn });
  });

  it("a client with no remembered consent that signed the subscriber in (mc_authz, network) uses its own PCR", async () => {
    // Issue 33 follow-up: transaction approvals (mc_authz) and silent network sign-ins remember no consent; the sign-in
    // they record in the audit log (what a handset approval writes: sign_in, method device) makes the PCR this client's.
    const approver = await createTestClient({ redirectUris: ["https://rp.example.test/approvals"] });
    const bob = await createTestSubscriber();
    const bobPcr = await rememberPairwiseSubject({ subscriberId: bob.id, sectorIdentifier: "rp.example.test" });
    const unknownPcr = pairwiseSubject({ subscriberId: "nobody", sectorIdentifier: "rp.example.test" });
    const refused = async (hint: string) => {
      const q = requestFor(approver, { login_hint: `PCR:${hint}` });
      return expectErrorRedirect(await authorize(q), approver, q.state, "invalid_request");
    };
    const before = await refused(bobPcr); // nothing of bob's was ever issued to it: as an unknown PCR
    expect(before).toBe(await refused(unknownPcr));
    await recordAuditEvent({ type: "sign_in", outcome: "success", subscriberId: bob.id, clientId: approver.id,
      detail: { method: "device", acr: "2" } });
    const { params } = await expectInteraction(await authorize(requestFor(approver, { login_hint: `PCR:${bobPcr}` })));
    expect(params).toMatchObject({ hintedSubscriberId: bob.id, hintedMsisdn: bob.msisdn });
    // A sign-in at another client of the sector does not count for this one; a withdrawal ends it until the next one.
    const other = await createTestClient({ redirectUris: ["https://rp.example.test/other"] });
    const q = requestFor(other, { login_hint: `PCR:${bobPcr}` });
    expectErrorRedirect(await authorize(q), other, q.state, "invalid_request");
    await recordAuditEvent({ type: "consent_withdrawn", outcome: "success", subscriberId: bob.id, clientId: approver.id });
    expect(await refused(bobPcr)).toBe(before);
    await recordAuditEvent({ type: "token_issued", outcome: "success", subscriberId: bob.id, clientId: approver.id });
    await expectInteraction(await authorize(requestFor(approver, { login_hint: `PCR:${bobPcr}` })));
  });

  it("MSISDN of a suspended subscriber is not revealed here", async () => {
    const suspended = await createTestSubscriber({ status: "suspended" });
    const { params } = await expectInteraction(await authorize(requestFor(client, { login_hint: `MSISDN:${suspended.msisdn}` })));
    expect(params.hintedMsisdn).toBe(suspended.msisdn);
  });

  it("a hint naming another subscriber makes the browser's session not count", async () => {
    await grant(alice, client).catch(() => undefined);
    const { browserId } = await signedInBrowser(alice);
    const { row } = await expectInteraction(await authorize(requestFor(client, { login_hint: "MSISDN:447000000003" }), { browserId }));
    expect(row.status).toBe("pending");
    const q = requestFor(client, { login_hint: `PCR:${pcr}` });
    expect(expectCallback(await authorize(q, { browserId }), client, q.state).get("code")).toBeTruthy();
  });

  it("a hint that is not one of the three forms is ignored (OIDC: hints are advisory)", async () => {
    const { params } = await expectInteraction(await authorize(requestFor(client, { login_hint: "alice@example.com" })));
    expect(params.loginHint).toBeUndefined();
    expect(params.hintedMsisdn).toBeUndefined();
  });
});

describe("login_hint_token", () => {
  async function token(claims: Record<string, unknown>, exp: string | number = "5m") {
    const key = await serverKey("enc");
    return new EncryptJWT(claims).setProtectedHeader({ alg: "RSA-OAEP-256", enc: "A256GCM", kid: key.kid })
      .setIssuedAt().setExpirationTime(exp).encrypt(publicKeyOf(key));
  }

  it("a JWE to our enc key carrying a hint resolves like login_hint and takes precedence", async () => {
    const t = await token({ login_hint: `MSISDN:${alice.msisdn}`, aud: baseUrl });
    const { params } = await expectInteraction(await authorize(requestFor(client, {
      login_hint_token: t, login_hint: "MSISDN:447000000004",
    })));
    expect(params).toMatchObject({ hintedMsisdn: alice.msisdn, loginHint: t });
  });

  it("carrying a PCR", async () => {
    const { params } = await expectInteraction(await authorize(requestFor(client, { login_hint_token: await token({ login_hint: `PCR:${pcr}` }) })));
    expect(params.hintedSubscriberId).toBe(alice.id);
  });

  it.each([
    ["expired", { login_hint: "MSISDN:447700900123" }, Math.floor(Date.now() / 1000) - 3600],
    ["for another operator", { login_hint: "MSISDN:447700900123", aud: "https://other-operator.example" }, "5m"],
    ["without a hint", { foo: "bar" }, "5m"],
    ["with a bad hint", { login_hint: "MSISDN:abc" }, "5m"],
  ])("%s -> invalid_request", async (_name, claims, exp) => {
    const q = requestFor(client, { login_hint_token: await token(claims, exp) });
    expect(expectErrorRedirect(await authorize(q), client, q.state, "invalid_request"))
      .toMatch(/^Invalid value for login_hint or login_hint_token/);
  });

  it("a signed (not encrypted) token -> invalid_request", async () => {
    const q = requestFor(client, { login_hint_token: await new SignJWT({ login_hint: `MSISDN:${alice.msisdn}` })
      .setProtectedHeader({ alg: "RS256" }).sign((await serverKey("sig")).privateKey) });
    expectErrorRedirect(await authorize(q), client, q.state, "invalid_request");
  });
});

describe("hashed_login_hint (Mobile Connect DI profile): the hash of exactly what the client sent", () => {
  const sha256Hex = (s: string) => createHash("sha256").update(s).digest("hex");
  const decryptedHint = () => sha256Hex(`MSISDN:${alice.msisdn}`);

  /** Runs the flow silently (alice signed in, consent remembered) and returns the id_token's claims. */
  async function claimsFor(hints: Record<string, string>) {
    const { browserId } = await signedInBrowser(alice);
    const q = requestFor(client, hints);
    const code = expectCallback(await authorize(q, { browserId }), client, q.state).get("code")!;
    const res = await redeemCode(baseUrl, client, code);
    expect(res.status).toBe(200);
    return decodeJwt(((await res.json()) as { id_token: string }).id_token);
  }

  beforeAll(async () => {
    await grant(alice, client).catch(() => undefined);
  });

  it("login_hint_token: the hash of the token, not of the number it carries", async () => {
    const key = await serverKey("enc");
    const t = await new EncryptJWT({ login_hint: `MSISDN:${alice.msisdn}` })
      .setProtectedHeader({ alg: "RSA-OAEP-256", enc: "A256GCM", kid: key.kid })
      .setIssuedAt().setExpirationTime("5m").encrypt(publicKeyOf(key));
    const claims = await claimsFor({ login_hint_token: t });
    expect(claims.hashed_login_hint).toBe(sha256Hex(t));
    expect(claims.hashed_login_hint).not.toBe(decryptedHint());
  });

  it("ENCR_MSISDN login_hint: the hash of the encrypted value as sent, not of the number", async () => {
    const key = await serverKey("enc");
    const hint = `ENCR_MSISDN:${encryptMsisdn({ msisdn: alice.msisdn, publicJwk: key.publicJwk })}`;
    const claims = await claimsFor({ login_hint: hint });
    expect(claims.hashed_login_hint).toBe(sha256Hex(hint));
    expect(claims.hashed_login_hint).not.toBe(decryptedHint());
  });

  it("MSISDN login_hint: the hash of the text as sent, prefix case and + included", async () => {
    const hint = `msisdn:+${alice.msisdn}`;
    const claims = await claimsFor({ login_hint: hint });
    expect(claims.hashed_login_hint).toBe(sha256Hex(hint));
    expect((await claimsFor({ login_hint: `MSISDN:${alice.msisdn}` })).hashed_login_hint).toBe(decryptedHint());
  });
});

describe("pairwise subject", () => {
  it("the PCR used in the tests is the HMAC for the client's sector", () => {
    expect(pcr).toBe(pairwiseSubject({ subscriberId: alice.id, sectorIdentifier: "rp.example.test" }));
  });
});
