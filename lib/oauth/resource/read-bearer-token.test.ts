import { describe, expect, it } from "vitest";
import { OAuthError } from "../errors";
import { bearerChallenge } from "./bearer-challenge";
import { readBearerToken } from "./read-bearer-token";

const form = (body: string, headers: Record<string, string> = {}) => new Request("http://op.test/premiuminfo", {
  method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers } });

describe("readBearerToken (RFC 6750 §2)", () => {
  it("reads the header, the form body and the interface's ?token=", async () => {
    const h = new Request("http://op.test/x", { headers: { Authorization: "Bearer abc.DEF-_~+/=" } });
    expect((await readBearerToken(h)).token).toBe("abc.DEF-_~+/=");
    expect((await readBearerToken(form("access_token=t1"))).token).toBe("t1");
    expect((await readBearerToken(new Request("http://op.test/x?token=t2"), { queryNames: ["token"] })).token).toBe("t2");
  });

  it("ignores ?token= where it is not allowed and refuses two methods", async () => {
    await expect(readBearerToken(new Request("http://op.test/x?token=t2"))).rejects.toMatchObject({
      error: "invalid_token", status: 401, description: "No Access Token" });
    await expect(readBearerToken(form("access_token=a", { Authorization: "Bearer b" }))).rejects.toMatchObject({
      error: "invalid_request", status: 400 });
    await expect(readBearerToken(new Request("http://op.test/x", { headers: { Authorization: "Bearer a b" } })))
      .rejects.toMatchObject({ error: "invalid_request", status: 400 });
  });

  it("does not take Basic credentials for a token", async () => {
    const req = new Request("http://op.test/x?token=t", { headers: { Authorization: "Basic YTpi" } });
    expect((await readBearerToken(req, { queryNames: ["token"] })).token).toBe("t");
  });
});

describe("bearerChallenge (RFC 6750 §3)", () => {
  it("carries error and error_description in the characters the RFC allows", () => {
    const err = new OAuthError("invalid_token", 'bad "token" \\ §', 401);
    expect(bearerChallenge(err, "premiuminfo")).toBe(
      'Bearer realm="premiuminfo", error="invalid_token", error_description="bad token  "');
    expect(/error\s?=\s?"(.*?)"/.exec(bearerChallenge(err, "r"))?.[1]).toBe("invalid_token");
  });
});
