import { beforeAll, describe, expect, it } from "vitest";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import {
  authorize, baseUrl, createTestClient, db, expectErrorPage, expectErrorRedirect, expectInteraction, requestFor,
  type Client,
} from "../../support/authorize-support";

let client: Client;

beforeAll(async () => {
  client = await createTestClient({ scopes: ["openid", "mc_authn", "mc_authz", "mc_identity_phonenumber"] });
});

describe("client_id and redirect_uri are checked first and never redirected", () => {
  it("unknown client_id -> 400 error page", async () => {
    const html = await expectErrorPage(await authorize(requestFor(client, { client_id: "no-such-client" })));
    expect(html).toContain("client_id");
  });

  it("missing client_id or redirect_uri -> 400 error page", async () => {
    await expectErrorPage(await authorize(requestFor(client, { client_id: undefined })));
    await expectErrorPage(await authorize(requestFor(client, { redirect_uri: undefined })));
  });

  it("disabled client -> 400 error page", async () => {
    const disabled = await createTestClient();
    await db.client.update({ where: { id: disabled.id }, data: { status: "disabled" } });
    await expectErrorPage(await authorize(requestFor(disabled)));
  });

  it("redirect_uri not registered (or not byte-for-byte equal) -> 400 error page", async () => {
    for (const uri of ["https://evil.example/cb", `${client.redirectUri}/`, client.redirectUri.toUpperCase(),
      `${client.redirectUri}?x=1`]) {
      await expectErrorPage(await authorize(requestFor(client, { redirect_uri: uri })));
    }
  });

  it("client_id or redirect_uri sent twice -> 400 error page", async () => {
    const q = Object.entries(requestFor(client));
    await expectErrorPage(await authorize([...q, ["client_id", client.id]]));
    await expectErrorPage(await authorize([...q, ["redirect_uri", client.redirectUri]]));
  });

  it("a request over 16 KB -> 413 error page (POST), 414 for a URL over 8 KB (431 from Node past 16 KB); never a 500", async () => {
    const res = await fetch(`${baseUrl}/authorize`, {
      method: "POST", redirect: "manual", body: new URLSearchParams(requestFor(client, { junk: "x".repeat(17_000) })),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${browserCookieName()}=${"a".repeat(43)}` },
    });
    expect(await expectErrorPage(res, 413)).toContain("too large");
    const get = await authorize(requestFor(client, { junk: "x".repeat(17_000) }));
    expect([414, 431]).toContain(get.status);
    expect(get.headers.get("location")).toBeNull();
  });

  // Issue 19: request objects are supported (test/integration/jar-par/); one that cannot be verified is
  // refused on our page (its redirect_uri is not trusted), no longer redirected as request_not_supported.
  it.each([
    ["an unverifiable request object", { request: "eyJ.x.y" }, "invalid_request_object"],
    ["a request_uri on a name that does not resolve", { request_uri: "https://rp.example.test/r" }, "invalid_request_uri"],
  ])("%s -> %s on the error page", async (_name, overrides, error) => {
    expect(await expectErrorPage(await authorize(requestFor(client, overrides)))).toContain(error);
  });

  it("escapes what it shows", async () => {
    const html = await expectErrorPage(await authorize(requestFor(client, { client_id: "<script>alert(1)</script>" })));
    expect(html).not.toContain("<script>");
  });
});

describe("every later error is redirected with error, error_description, state and iss", () => {
  const cases: Array<[string, Record<string, string | undefined>, string, string?]> = [
    ["bad response_type", { response_type: "token" }, "unsupported_response_type",
      "MANDATORY parameter response_type is missing or value is invalid"],
    ["missing scope", { scope: undefined }, "invalid_scope", "MANDATORY parameter scope is missing"],
    ["scope without openid", { scope: "mc_authn" }, "invalid_scope"],
    ["scope not allowed for the client", { scope: "openid mc_identity_nationalid" }, "invalid_scope"],
    ["missing nonce", { nonce: undefined }, "invalid_request", "MANDATORY parameter nonce is missing or invalid"],
    ["unsupported acr_values", { acr_values: "1 4" }, "invalid_request",
      "MANDATORY parameter acr_values are missing or invalid values"],
    ["bad display", { display: "tv" }, "invalid_request", "Invalid display value"],
    ["prompt none with login", { prompt: "none login" }, "invalid_request"],
    ["unknown prompt", { prompt: "sometimes" }, "invalid_request", "Prompt value is invalid"],
    ["bad max_age", { max_age: "-5" }, "invalid_request"],
    ["unknown version", { version: "mc_v9" }, "invalid_request", "MANDATORY parameter version is invalid"],
    ["client_name not the registered one", { client_name: "Someone Else" }, "invalid_request"],
    ["mc_authz without context", { scope: "openid mc_authz", client_name: "x" }, "invalid_request"],
    ["PKCE plain", { code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "plain" },
      "invalid_request", "code_challenge_method must be S256 (plain is not allowed)"],
    ["response_mode fragment", { response_mode: "fragment" }, "invalid_request"],
    ["malformed login_hint", { login_hint: "MSISDN:12ab" }, "invalid_request", "Invalid value for login_hint or login_hint_token"],
    ["undecryptable ENCR_MSISDN", { login_hint: `ENCR_MSISDN:${"ab".repeat(128)}` }, "invalid_request",
      "Invalid value for login_hint or login_hint_token"],
    ["unknown PCR", { login_hint: "PCR:unknownunknownunknownunknown" }, "invalid_request"],
    ["bad login_hint_token", { login_hint_token: "a.b.c.d.e" }, "invalid_request",
      "Invalid value for login_hint or login_hint_token"],
    ["bad id_token_hint", { id_token_hint: "x.y.z" }, "login_error"],
    ["bad id_token_hint with prompt=none", { id_token_hint: "x.y.z", prompt: "none" }, "login_required"],
  ];

  it.each(cases)("%s", async (_name, overrides, error, description) => {
    const q = requestFor(client, overrides);
    const text = expectErrorRedirect(await authorize(q), client, q.state, error);
    if (description) expect(text).toBe(description);
    else expect(text).toBeTruthy();
  });

  it("missing state -> invalid_request without state", async () => {
    const q = requestFor(client, { state: undefined });
    expect(expectErrorRedirect(await authorize(q), client, undefined, "invalid_request"))
      .toBe("MANDATORY parameter state is missing");
  });

  it("a duplicated parameter -> invalid_request naming it", async () => {
    const q = requestFor(client);
    const res = await authorize([...Object.entries(q), ["nonce", "again"]]);
    expect(expectErrorRedirect(res, client, q.state, "invalid_request"))
      .toBe("Multiple parameter names in the authorization request (nonce)");
  });

  it("a hyphenated alias beside its canonical name is a duplicate", async () => {
    const q = requestFor(client, { max_age: "10" });
    const res = await authorize([...Object.entries(q), ["max-age", "20"]]);
    expectErrorRedirect(res, client, q.state, "invalid_request");
  });

  it("an over-long parameter -> invalid_request; an over-long state is not echoed", async () => {
    const q = requestFor(client, { nonce: "n".repeat(600) });
    expect(expectErrorRedirect(await authorize(q), client, q.state, "invalid_request")).toContain("nonce");
    const long = requestFor(client, { state: "s".repeat(3000) });
    expectErrorRedirect(await authorize(long), client, undefined, "invalid_request");
  });

  it("keeps the query of a registered redirect URI", async () => {
    const withQuery = await createTestClient({ redirectUris: ["https://rp.example.test/cb?tenant=a%20b&x"] });
    const q = requestFor(withQuery, { response_type: "token" });
    const res = await authorize(q);
    const location = res.headers.get("location")!;
    expect(location.startsWith("https://rp.example.test/cb?tenant=a%20b&x&error=unsupported_response_type&")).toBe(true);
    expect(new URL(location).searchParams.get("state")).toBe(q.state);
  });

  it("public clients must use PKCE", async () => {
    const pub = await createTestClient({ isPublic: true });
    const q = requestFor(pub);
    expect(expectErrorRedirect(await authorize(q), pub, q.state, "invalid_request"))
      .toBe("code_challenge (PKCE S256) is required for public clients");
  });
});

describe("the optional Authentication: Basic header", () => {
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

  it("is accepted when it names this client with its secret", async () => {
    await expectInteraction(await authorize(requestFor(client), { headers: { Authentication: basic(client.id, client.secret!) } }));
  });

  it("a wrong secret or another client's credentials -> invalid_client", async () => {
    const other = await createTestClient();
    const q = requestFor(client);
    expectErrorRedirect(await authorize(q, { headers: { Authentication: basic(client.id, "wrong") } }), client, q.state,
      "invalid_client");
    expectErrorRedirect(await authorize(q, { headers: { Authorization: basic(other.id, other.secret!) } }), client, q.state,
      "invalid_client");
  });
});

describe("a valid request", () => {
  it("is stored and sent to the interaction screen with a new browser cookie", async () => {
    const q = requestFor(client, {
      scope: "openid mc_authn mc_identity_phonenumber openid", acr_values: "3 2", display: "popup", prompt: "login",
      "max-age": "300", "ui-locales": "fr en", claims_locales: "en", version: "mc_v1.2", unknown_param: "ignored",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256",
      login_hint: "MSISDN:+447700900999",
    });
    const res = await authorize(q);
    const { row, params } = await expectInteraction(res);
    expect(row).toMatchObject({ clientId: client.id, status: "pending", subscriberId: null, sessionId: null });
    expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(params).toMatchObject({
      clientId: client.id, clientName: client.name, redirectUri: client.redirectUri,
      scopes: ["openid", "mc_authn", "mc_identity_phonenumber"], acrValues: ["3", "2"], acr: "3", state: q.state,
      nonce: q.nonce, display: "popup", prompt: ["login"], maxAge: 300, uiLocales: ["fr", "en"], claimsLocales: ["en"],
      version: "mc_v1.2", codeChallenge: q.code_challenge, codeChallengeMethod: "S256",
      loginHint: "MSISDN:+447700900999", hintedMsisdn: "447700900999",
    });
    // an unknown number is not revealed here: the screens fail generically later
    expect(params.hintedSubscriberId).toBeUndefined();
    expect(Math.abs(params.requestedAt - Date.now() / 1000)).toBeLessThan(600);
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(new RegExp(`^${browserCookieName()}=[A-Za-z0-9_-]{43};`));
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
  });

  it("mc_authz keeps client_name, context and the spec's 'binding message' spelling", async () => {
    const q = requestFor(client, { scope: "openid mc_authz", client_name: client.name, context: "Pay 5 GBP",
      "binding message": "REF 7" });
    const { params } = await expectInteraction(await authorize(q));
    expect(params).toMatchObject({ context: "Pay 5 GBP", bindingMessage: "REF 7", clientName: client.name });
  });

  it("prompt=no_seam is accepted", async () => {
    const { params } = await expectInteraction(await authorize(requestFor(client, { prompt: "no_seam" })));
    expect(params.prompt).toEqual(["no_seam"]);
  });

  it("POST form-encoded without our cookie is re-issued as a GET (the cookie is SameSite=Lax)", async () => {
    const q = requestFor(client);
    const res = await fetch(`${baseUrl}/authorize`, {
      method: "POST", redirect: "manual", body: new URLSearchParams(q),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${baseUrl}/authorize`);
    expect(Object.fromEntries(location.searchParams)).toEqual(q);
  });

  it("POST form-encoded with our cookie is answered directly, with 303", async () => {
    const q = requestFor(client, { response_type: "token" });
    const res = await fetch(`${baseUrl}/authorize`, {
      method: "POST", redirect: "manual", body: new URLSearchParams(q),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${browserCookieName()}=${"a".repeat(43)}` },
    });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("unsupported_response_type");
  });

  it("POST with another content type -> error page", async () => {
    const res = await fetch(`${baseUrl}/authorize`, {
      method: "POST", redirect: "manual", body: JSON.stringify(requestFor(client)),
      headers: { "content-type": "application/json" },
    });
    await expectErrorPage(res);
  });
});
