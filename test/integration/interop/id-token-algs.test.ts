import { createHash } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import * as client from "openid-client";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { getClient } from "@/lib/clients/get-client";
import { updateClient } from "@/lib/clients/update-client";
import { SIGNING_ALGS, type SigningAlg } from "@/lib/keys/key-store";
import { signLogoutToken } from "@/lib/logout/logout-token";
import { readRegistrationMetadata } from "@/lib/registration/registration-metadata";
import { InvalidClientMetadata } from "@/lib/registration/registration-errors";
import { createTestSubscriber } from "../../support/fixtures";
import { signInAndConsent } from "../../support/browserless";

/**
 * Per-client id_token algorithms (issue 23) over real HTTP: for a client of each algorithm, openid-client v6 runs the
 * whole code flow with the client's `id_token_signed_response_alg` set (it checks the header's `alg` against it, and
 * the claims), and the signature is checked with jose against our jwks_uri: openid-client v6 / oauth4webapi do not
 * verify a code-flow id_token's signature themselves (OIDC Core §3.1.3.7 lets a TLS-authenticated token response
 * stand in for it; oauth4webapi's validateJwt only parses and checks `alg`, validateApplicationLevelSignature is a
 * separate call), so a test that stopped at the library would not prove the signature.
 */
const baseUrl = inject("baseUrl");
const issuer = new URL(baseUrl);
const insecure = { execute: [client.allowInsecureRequests] };

async function registerClient(alg?: SigningAlg) {
  const redirectUri = "https://rp.example.test/callback";
  const name = `Alg${Math.random().toString(36).slice(2, 10)}`;
  const { client: c, clientSecret } = await createClient({ name, redirectUris: [redirectUri],
    scopes: ["openid", "offline_access"], ...(alg ? { idTokenSignedResponseAlg: alg } : {}) });
  return { id: c.id, secret: clientSecret!, redirectUri, alg: c.idTokenSignedResponseAlg };
}

/** at_hash as a client library computes it (oauth4webapi idTokenHash): SHA-512 for EdDSA, SHA-256 otherwise. */
const atHash = (alg: string, token: string) => {
  const digest = createHash(alg === "EdDSA" ? "sha512" : "sha256").update(token).digest();
  return digest.subarray(0, digest.length / 2).toString("base64url");
};

async function codeFlow(rp: Awaited<ReturnType<typeof registerClient>>, configuredAlg: string) {
  const config = await client.discovery(issuer, rp.id,
    { client_secret: rp.secret, id_token_signed_response_alg: configuredAlg }, undefined, insecure);
  const subscriber = await createTestSubscriber();
  const codeVerifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, { redirect_uri: rp.redirectUri, scope: "openid offline_access",
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: "S256" });
  const { callbackUrl } = await signInAndConsent({ authorizationUrl: url.href, msisdn: subscriber.msisdn, pin: subscriber.pin });
  return { config, tokens: () => client.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: codeVerifier }) };
}

describe("id_token_signed_response_alg per client, verified by openid-client v6 and jose against our JWKS", () => {
  const jwks = createRemoteJWKSet(new URL("/jwks", baseUrl));

  it("discovery lists the four algorithms, and the JWKS one key per algorithm with alg, use sig and its own kid", async () => {
    const config = await client.discovery(issuer, "x", undefined, undefined, insecure);
    expect(config.serverMetadata().id_token_signing_alg_values_supported).toEqual(["RS256", "PS256", "ES256", "EdDSA"]);
    const { keys } = (await (await fetch(new URL("/jwks", baseUrl))).json()) as { keys: Array<Record<string, string>> };
    for (const alg of SIGNING_ALGS) {
      const mine = keys.filter((k) => k.use === "sig" && k.alg === alg);
      expect(mine.length, alg).toBeGreaterThanOrEqual(2); // active and next (and retired ones still published)
    }
    expect(new Set(keys.map((k) => k.kid)).size).toBe(keys.length);
  });

  for (const alg of SIGNING_ALGS) {
    it(`${alg}: the code flow's and the refresh's id_tokens are signed with the ${alg} key`, async () => {
      const rp = await registerClient(alg);
      expect(rp.alg).toBe(alg);
      const flow = await codeFlow(rp, alg);
      const tokens = await flow.tokens();
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({ iss: baseUrl, aud: rp.id });
      const header = decodeProtectedHeader(tokens.id_token!);
      expect(header).toMatchObject({ alg, typ: "JWT" });
      const verified = await jwtVerify(tokens.id_token!, jwks, { issuer: baseUrl, audience: rp.id, algorithms: [alg] });
      expect(verified.payload.sub).toBe(claims.sub);
      expect(verified.payload.at_hash).toBe(atHash(alg, tokens.access_token));

      const refreshed = await client.refreshTokenGrant(flow.config, tokens.refresh_token!);
      const again = await jwtVerify(refreshed.id_token!, jwks, { issuer: baseUrl, audience: rp.id, algorithms: [alg] });
      expect(again.protectedHeader).toMatchObject({ alg, kid: header.kid });
      expect(again.payload.at_hash).toBe(atHash(alg, refreshed.access_token));
    });
  }

  it("defaults to RS256, and openid-client refuses an id_token whose alg is not the one the client registered", async () => {
    const rp = await registerClient();
    expect(rp.alg).toBe("RS256");
    const flow = await codeFlow(rp, "ES256");
    // openid-client wraps oauth4webapi's error: "invalid response encountered", the cause naming the alg check.
    const err = await flow.tokens().catch((e: unknown) => e) as Error & { cause?: Error };
    expect(err).toBeInstanceOf(Error);
    expect(err.cause?.message).toMatch(/unexpected JWT "alg" header parameter/);
  });

  it("changes a client's alg (client set --id-token-alg): new id_tokens and logout tokens use it", async () => {
    const rp = await registerClient();
    await updateClient({ clientId: rp.id, changes: { idTokenSignedResponseAlg: "PS256" } });
    expect((await getClient({ clientId: rp.id }))!.idTokenSignedResponseAlg).toBe("PS256");
    const tokens = await (await codeFlow(rp, "PS256")).tokens();
    await jwtVerify(tokens.id_token!, jwks, { issuer: baseUrl, audience: rp.id, algorithms: ["PS256"] });
    // Back-Channel Logout §2.4: the same keys as the client's ID tokens.
    const logoutToken = await signLogoutToken({ clientId: rp.id, sub: "s", jti: "j" });
    const { protectedHeader } = await jwtVerify(logoutToken, jwks, { issuer: baseUrl, audience: rp.id, algorithms: ["PS256"] });
    expect(protectedHeader).toMatchObject({ alg: "PS256", typ: "logout+jwt" });
    await expect(updateClient({ clientId: rp.id, changes: { idTokenSignedResponseAlg: "HS256" } }))
      .rejects.toThrow(/must be one of RS256, PS256, ES256, EdDSA/);
  });
});

describe("registration: id_token_signed_response_alg", () => {
  const body = (alg?: unknown) => ({ redirect_uris: ["https://rp.example.test/cb"],
    ...(alg === undefined ? {} : { id_token_signed_response_alg: alg }) });
  const read = (alg?: unknown) => readRegistrationMetadata(body(alg), { allowLoopback: false });

  it("accepts the four algorithms, RS256 when absent", async () => {
    expect((await read()).idTokenSignedResponseAlg).toBe("RS256");
    for (const alg of SIGNING_ALGS) expect((await read(alg)).idTokenSignedResponseAlg).toBe(alg);
  });

  it("refuses anything else with invalid_client_metadata and a clear description; none is refused", async () => {
    for (const [alg, message] of [["none", /must be one of RS256, PS256, ES256, EdDSA \(unsigned ID tokens are not issued\)/],
      ["HS256", /must be one of RS256, PS256, ES256, EdDSA/], ["es256", /must be one of/], [42, /must be a string/]] as const) {
      const err = await read(alg).catch((e: unknown) => e);
      expect(err, String(alg)).toBeInstanceOf(InvalidClientMetadata);
      expect((err as Error).message).toMatch(message);
    }
  });
});
