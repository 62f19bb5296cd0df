import { beforeAll, describe, expect, it } from "vitest";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from "jose";
import { freshDatabase } from "@/test/support/server";
import { db } from "@/lib/db";
import { config } from "@/lib/config";
import { getKeys, invalidateKeyCache } from "@/lib/keys/key-store";
import { rotateKeys } from "@/lib/keys/rotate-keys";
import { signIdToken } from "@/lib/oauth/id-token";

// RFC 9700 / issue 6: signing-key rotation must not break tokens already issued. On a database of
// its own (the integration server's keys must not move under other tests).
beforeAll(() => {
  process.env.DATABASE_URL = freshDatabase("key-rotation-tokens");
  expect(config().DATABASE_URL).toBe(process.env.DATABASE_URL);
});

const sign = () => signIdToken({ client: { id: "rp", sectorIdentifier: "rp.example.test" }, subscriberId: "s1",
  accessToken: "at", acr: "2", amr: ["otp"], authTime: new Date(), nonce: "n" });

async function published() {
  invalidateKeyCache();
  return createLocalJWKSet({ keys: (await getKeys()).map((k) => k.publicJwk as JWK) });
}

describe("signing key rotation", () => {
  it("an id_token signed before a rotation still verifies against the published JWKS after it, until removeAfter", async () => {
    const before = await sign();
    await rotateKeys({ use: "sig" });
    invalidateKeyCache();
    const after = await sign();
    expect(decodeProtectedHeader(after).kid).not.toBe(decodeProtectedHeader(before).kid);
    const jwks = await published();
    for (const token of [before, after]) {
      await expect(jwtVerify(token, jwks, { issuer: config().ISSUER, audience: "rp" })).resolves.toBeTruthy();
    }
    // The retired key leaves the set only after the longest lifetime of what it signed.
    await db.key.updateMany({ where: { kid: decodeProtectedHeader(before).kid!, status: "retired" },
      data: { removeAfter: new Date(Date.now() - 1000) } });
    await expect(jwtVerify(before, await published())).rejects.toThrow();
  });
});
