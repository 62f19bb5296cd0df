import { beforeAll, describe, expect, it } from "vitest";
import { EncryptJWT, SignJWT } from "jose";
import { clockSkewSeconds, isBeyondSkewInFuture } from "@/lib/oauth/clock-skew";
import { rememberPairwiseSubject } from "@/lib/subjects/pairwise-subject";
import {
  authorize, baseUrl, createTestClient, createTestSubscriber, expectErrorRedirect, expectInteraction,
  publicKeyOf, requestFor, serverKey, type Client, type Subscriber,
} from "@/test/support/authorize-support";

// Clock skew (issue 6, "Faults"): times written by another clock are judged with one tolerance,
// CLOCK_SKEW_SECONDS (default 60 s). 30 s of skew passes, 5 minutes does not.
let client: Client;
let alice: Subscriber;
let pcr: string;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  client = await createTestClient();
  alice = await createTestSubscriber();
  pcr = await rememberPairwiseSubject({ subscriberId: alice.id, sectorIdentifier: "rp.example.test" });
});

describe("the tolerance", () => {
  it("is 60 s by default and compares NumericDates in seconds", () => {
    expect(clockSkewSeconds()).toBe(60);
    const t = Date.now();
    expect(isBeyondSkewInFuture(Math.floor(t / 1000) + 30, t)).toBe(false);
    expect(isBeyondSkewInFuture(Math.floor(t / 1000) + 61, t)).toBe(true);
    expect(isBeyondSkewInFuture("soon", t)).toBe(false);
  });
});

describe("login_hint_token (the discovery service's clock)", () => {
  async function hintToken(times: { iat?: number; nbf?: number; exp: number }) {
    const key = await serverKey("enc");
    return new EncryptJWT({ login_hint: `MSISDN:${alice.msisdn}`, aud: baseUrl, ...times })
      .setProtectedHeader({ alg: "RSA-OAEP-256", enc: "A256GCM", kid: key.kid }).encrypt(publicKeyOf(key));
  }
  const accepted = async (times: { iat?: number; nbf?: number; exp: number }) => {
    const { params } = await expectInteraction(await authorize(requestFor(client, { login_hint_token: await hintToken(times) })));
    expect(params.hintedMsisdn).toBe(alice.msisdn);
  };
  const refused = async (times: { iat?: number; nbf?: number; exp: number }) => {
    const q = requestFor(client, { login_hint_token: await hintToken(times) });
    expect(expectErrorRedirect(await authorize(q), client, q.state, "invalid_request"))
      .toMatch(/login_hint or login_hint_token/);
  };

  it("issued 30 s in the future -> accepted", () => accepted({ iat: now() + 30, exp: now() + 330 }));
  it("issued 5 min in the future -> refused", () => refused({ iat: now() + 300, exp: now() + 600 }));
  it("not before 30 s from now -> accepted", () => accepted({ nbf: now() + 30, exp: now() + 330 }));
  it("not before 5 min from now -> refused", () => refused({ nbf: now() + 300, exp: now() + 600 }));
  it("expired 30 s ago -> accepted", () => accepted({ iat: now() - 330, exp: now() - 30 }));
  it("expired 5 min ago -> refused", () => refused({ iat: now() - 600, exp: now() - 300 }));
});

describe("id_token_hint (the clock of the instance that issued it)", () => {
  async function idToken(iat: number) {
    const key = await serverKey("sig");
    return new SignJWT({ iss: baseUrl, aud: client.id, sub: pcr, iat, exp: iat + 600 })
      .setProtectedHeader({ alg: "RS256", kid: key.kid }).sign(key.privateKey);
  }

  it("issued 30 s in the future -> names its subscriber", async () => {
    const { params } = await expectInteraction(await authorize(requestFor(client, { id_token_hint: await idToken(now() + 30) })));
    expect(params.hintedSubscriberId).toBe(alice.id);
  });

  it("issued 5 min in the future -> login_error", async () => {
    const q = requestFor(client, { id_token_hint: await idToken(now() + 300) });
    expectErrorRedirect(await authorize(q), client, q.state, "login_error");
  });
});
