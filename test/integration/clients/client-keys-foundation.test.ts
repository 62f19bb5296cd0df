import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SignJWT, exportJWK, generateKeyPair, UnsecuredJWT } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { getClient, invalidateClient } from "@/lib/clients/get-client";
import { updateClient } from "@/lib/clients/update-client";
import { verifyClientJwt, ClientJwtError } from "@/lib/clients/verify-client-jwt";
import { reserveJwtId } from "@/lib/security/replay-cache";
import { randomToken } from "@/lib/crypto";

async function keyPair(alg: "RS256" | "ES256" | "PS256") {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: `k-${randomToken(4)}`, alg } };
}
const name = () => `Keys${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`;
const sign = (key: CryptoKey, kid: string, alg: string, claims: Record<string, unknown> = {}) =>
  new SignJWT({ ...claims }).setProtectedHeader({ alg, kid }).setIssuer("c").setAudience("https://op.test/token")
    .setIssuedAt().setExpirationTime("60s").setJti(randomToken(8)).sign(key);

describe("client keys, JWT verification and the replay cache (issue 19 foundation)", () => {
  it("a private_key_jwt client gets no secret; its ES256 and PS256 JWTs verify, alg none and HS256 do not", async () => {
    const es = await keyPair("ES256");
    const ps = await keyPair("PS256");
    const { client, clientSecret } = await createClient({
      name: name(), redirectUris: ["https://rp.example/cb"], scopes: ["openid"], authMethod: "private_key_jwt",
      jwks: { keys: [es.jwk, ps.jwk] },
    });
    expect(clientSecret).toBeNull();
    expect(client.hasSecret).toBe(false);
    const rc = (await getClient({ clientId: client.id }))!;
    expect(rc.authMethod).toBe("private_key_jwt");
    const rules = { audience: "https://op.test/token", maxLifetimeSeconds: 300 };
    await expect(verifyClientJwt(rc, await sign(es.privateKey, es.jwk.kid, "ES256"), rules)).resolves.toBeTruthy();
    await expect(verifyClientJwt(rc, await sign(ps.privateKey, ps.jwk.kid, "PS256"), rules)).resolves.toBeTruthy();
    const none = new UnsecuredJWT({}).setAudience("https://op.test/token").setIssuedAt().setExpirationTime("60s").encode();
    await expect(verifyClientJwt(rc, none, rules)).rejects.toThrow(ClientJwtError);
    const hmac = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setAudience("https://op.test/token")
      .setIssuedAt().setExpirationTime("60s").sign(new TextEncoder().encode("x".repeat(32)));
    await expect(verifyClientJwt(rc, hmac, { ...rules, allowHmac: true })).rejects.toThrow(/HS256/);
    const long = await new SignJWT({}).setProtectedHeader({ alg: "ES256", kid: es.jwk.kid }).setAudience("https://op.test/token")
      .setIssuedAt().setExpirationTime("1h").sign(es.privateKey);
    await expect(verifyClientJwt(rc, long, rules)).rejects.toThrow(/longer than 300/);
    await expect(verifyClientJwt(rc, await sign(es.privateKey, es.jwk.kid, "ES256"), { audience: "https://other/" }))
      .rejects.toThrow(/aud/);
  });

  it("an assertion has one aud and no foreign typ: a request object or a DPoP proof is not a credential", async () => {
    const es = await keyPair("ES256");
    const { client } = await createClient({
      name: name(), redirectUris: ["https://rp.example/cb"], scopes: ["openid"], authMethod: "private_key_jwt",
      jwks: { keys: [es.jwk] },
    });
    const rc = (await getClient({ clientId: client.id }))!;
    const rules = { audience: "https://op.test/token", maxLifetimeSeconds: 300, assertion: true };
    const make = (aud: string | string[], typ?: string) => new SignJWT({}).setProtectedHeader({ alg: "ES256", kid: es.jwk.kid,
      ...(typ ? { typ } : {}) }).setAudience(aud).setIssuedAt().setExpirationTime("60s").setJti(randomToken(8)).sign(es.privateKey);
    await expect(verifyClientJwt(rc, await make("https://op.test/token"), rules)).resolves.toBeTruthy();
    await expect(verifyClientJwt(rc, await make(["https://op.test/token"], "JWT"), rules)).resolves.toBeTruthy();
    await expect(verifyClientJwt(rc, await make("https://op.test/token", "client-authentication+jwt"), rules)).resolves.toBeTruthy();
    await expect(verifyClientJwt(rc, await make(["https://op.test/token", "https://evil.example/token"]), rules))
      .rejects.toThrow(/single value/);
    await expect(verifyClientJwt(rc, await make("https://op.test/token", "oauth-authz-req+jwt"), rules)).rejects.toThrow(/not an assertion/);
    await expect(verifyClientJwt(rc, await make("https://op.test/token", "dpop+jwt"), rules)).rejects.toThrow(/not an assertion/);
    // Without the assertion rule (request objects), several audiences are jose's business as before.
    await expect(verifyClientJwt(rc, await make(["https://op.test/token", "x"]), { audience: "https://op.test/token" }))
      .resolves.toBeTruthy();
  });

  it("a secret client's sealed secret keys HS256 where allowed, and refuses private or small keys in jwks", async () => {
    const { client, clientSecret } = await createClient({ name: name(), redirectUris: ["https://rp.example/cb"], scopes: ["openid"] });
    invalidateClient({ clientId: client.id });
    const rc = (await getClient({ clientId: client.id }))!;
    const jwt = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setAudience("https://op.test/")
      .setIssuedAt().setExpirationTime("60s").sign(new TextEncoder().encode(clientSecret!));
    await expect(verifyClientJwt(rc, jwt, { audience: "https://op.test/", allowHmac: true })).resolves.toBeTruthy();
    await expect(verifyClientJwt(rc, jwt, { audience: "https://op.test/" })).rejects.toThrow(/HS256/);

    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    await expect(updateClient({ clientId: client.id, changes: { jwks: { keys: [await exportJWK(privateKey)] } } }))
      .rejects.toThrow(/private or symmetric/);
    const small = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ format: "jwk" });
    await expect(updateClient({ clientId: client.id, changes: { jwks: { keys: [small] } } }))
      .rejects.toThrow(/2048/);
    await expect(updateClient({ clientId: client.id, changes: { authMethod: "private_key_jwt" } })).rejects.toThrow(/jwks/);
  });

  it("reserves a jti once among fifty parallel presentations", async () => {
    const jti = randomToken(8);
    const expiresAt = new Date(Date.now() + 60_000);
    const results = await Promise.all(Array.from({ length: 50 },
      () => reserveJwtId({ kind: "client_assertion", issuer: "c1", jti, expiresAt })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await reserveJwtId({ kind: "dpop_proof", issuer: "c1", jti, expiresAt })).toBe(true);
  });
});
