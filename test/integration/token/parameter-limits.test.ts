import { describe, expect, inject, it } from "vitest";

/*
 * The one parameter reader (lib/parameters) at the token endpoint, with its exact texts: any name
 * sent twice, or a value over 4096 characters, is 400 invalid_request (docs/endpoints.md,
 * "Request parameters"), checked before client authentication, form or JSON alike.
 */
const baseUrl = inject("baseUrl");

async function token(body: string, type = "application/x-www-form-urlencoded") {
  const res = await fetch(`${baseUrl}/token`, { method: "POST", headers: { "content-type": type }, body });
  return { status: res.status, body: await res.json() };
}

describe("/token parameters", () => {
  it("refuses a repeated name, even an unknown one", async () => {
    expect(await token("grant_type=authorization_code&grant_type=refresh_token")).toEqual({ status: 400,
      body: { error: "invalid_request", error_description: "parameter grant_type is included more than once" } });
    expect((await token("foo=1&foo=2")).body.error_description).toBe("parameter foo is included more than once");
  });

  it("refuses a value over 4096 characters, and accepts 4096", async () => {
    expect(await token(`grant_type=authorization_code&code=${"c".repeat(4097)}`)).toEqual({ status: 400,
      body: { error: "invalid_request", error_description: "parameter code is too long" } });
    const json = await token(JSON.stringify({ code: "c".repeat(4097) }), "application/json");
    expect(json.body.error_description).toBe("parameter code is too long");
    expect((await token(`grant_type=authorization_code&code=${"c".repeat(4096)}`)).body.error_description)
      .not.toContain("too long");
  });
});
