import { describe, expect, it } from "vitest";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { config } from "../config";
import { getActiveKey } from "../keys/key-store";
import { pairwiseSubject } from "../subjects/pairwise-subject";
import { accessTokenHash, hashedLoginHint, signIdToken } from "./id-token";

describe("id_token", () => {
  it("computes at_hash as OIDC Core Appendix A does", () => {
    expect(accessTokenHash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y")).toBe("77QmUPtjPfzWtF2AnpK9RQ");
  });

  it("hashes the login hint as sent, lower-case hex", () => {
    // `printf 'MSISDN:447700900123' | sha256sum`
    expect(hashedLoginHint("MSISDN:447700900123")).toBe("654f10746598fb218145413cfc31ec248547ddec69b815076f09d1d49fce857e");
  });

  it("signs with the active key and sets every claim", async () => {
    const key = await getActiveKey("sig");
    const client = { id: "c1", sectorIdentifier: "rp.example.test" };
    const jwt = await signIdToken({ client, subscriberId: "s1", accessToken: "at", acr: "2", amr: ["otp"],
      authTime: new Date(1_700_000_000_000), nonce: "n", loginHint: "PCR:abc", iat: 1_700_000_100 });
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: "RS256", kid: key.kid, typ: "JWT" });
    expect(decodeJwt(jwt)).toEqual({
      iss: config().ISSUER, sub: pairwiseSubject({ subscriberId: "s1", sectorIdentifier: "rp.example.test" }),
      aud: "c1", azp: "c1", iat: 1_700_000_100, exp: 1_700_000_100 + config().ACCESS_TOKEN_TTL, nonce: "n",
      acr: "2", amr: ["otp"], auth_time: 1_700_000_000, at_hash: accessTokenHash("at"),
      hashed_login_hint: hashedLoginHint("PCR:abc"),
    });
  });
});
