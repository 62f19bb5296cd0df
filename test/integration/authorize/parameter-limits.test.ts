import { beforeAll, describe, expect, it } from "vitest";
import {
  authorize, createTestClient, expectErrorPage, expectErrorRedirect, requestFor, type Client,
} from "../../support/authorize-support";

/*
 * The one parameter reader (lib/parameters) at /authorize, with its exact texts: client_id and
 * redirect_uri are refused on our page (not verified yet), every other parameter is redirected.
 * Limits: docs/endpoints.md, "Request parameters".
 */
let client: Client;

beforeAll(async () => {
  client = await createTestClient();
});

describe("client_id and redirect_uri: repeated or over-long -> the error page, with its text", () => {
  it("names a repeated client_id or redirect_uri", async () => {
    const q = Object.entries(requestFor(client));
    for (const name of ["client_id", "redirect_uri"]) {
      const html = await expectErrorPage(await authorize([...q, [name, name === "client_id" ? client.id : "x"]]));
      expect(html).toContain(`Multiple parameter names in the authorization request (${name}).`);
    }
  });

  it("names an over-long client_id (over 200) or redirect_uri (over 2048)", async () => {
    const longId = await expectErrorPage(await authorize(requestFor(client, { client_id: "c".repeat(201) })));
    expect(longId).toContain("The parameter client_id is too long.");
    const longUri = await expectErrorPage(await authorize(requestFor(client,
      { redirect_uri: `${client.redirectUri}?${"r".repeat(2048)}` })));
    expect(longUri).toContain("The parameter redirect_uri is too long.");
  });
});

describe("every other known parameter: repeated or over-long -> invalid_request redirected", () => {
  it("names the parameter and its limit", async () => {
    const q = requestFor(client, { scope: `openid ${"s".repeat(1024)}` });
    expect(expectErrorRedirect(await authorize(q), client, q.state, "invalid_request"))
      .toBe("parameter scope is too long (at most 1024 characters)");
    const aliased = requestFor(client, { "ui-locales": "en", ui_locales: "fr" });
    expect(expectErrorRedirect(await authorize(aliased), client, aliased.state, "invalid_request"))
      .toBe("Multiple parameter names in the authorization request (ui_locales)");
  });
});
