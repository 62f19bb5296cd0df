import { beforeAll, describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { freshDatabase } from "@/test/support/server";
import { config } from "@/lib/config";
import { getActiveKey } from "./key-store";
import { verifyOwnIdToken } from "./verify-own-id-token";

// An id_token_hint is verified with our own key chosen by kid; the header's alg must be the one that key signs with.
beforeAll(() => {
  const url = freshDatabase("verify-own-id-token");
  process.env.DATABASE_URL = url;
  expect(config().DATABASE_URL).toBe(url);
});

async function signed(keyAlg: "RS256" | "PS256" | "ES256" | "EdDSA", headerAlg: string) {
  const key = await getActiveKey("sig", keyAlg);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: "s" }).setProtectedHeader({ alg: headerAlg, kid: key.kid }).setIssuer(config().ISSUER)
    .setAudience("c").setIssuedAt(now).setExpirationTime(now + 60).sign(key.privateKey);
}

describe("verifyOwnIdToken", () => {
  it("accepts a token of each algorithm signed by that algorithm's key", async () => {
    for (const alg of ["RS256", "PS256", "ES256", "EdDSA"] as const) {
      expect(await verifyOwnIdToken(await signed(alg, alg)), alg).toMatchObject({ sub: "s", iss: config().ISSUER });
    }
  });

  it("refuses a token whose alg is not the one its kid's key signs with (the RS256 key used as PS256, and back)", async () => {
    expect(await verifyOwnIdToken(await signed("RS256", "PS256"))).toBeNull();
    expect(await verifyOwnIdToken(await signed("PS256", "RS256"))).toBeNull();
  });
});
