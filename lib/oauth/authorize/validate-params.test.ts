import { describe, expect, it } from "vitest";
import type { RegisteredClient } from "../../clients/get-client";
import { OAuthError } from "../errors";
import { SUPPORTED_SCOPES, SUPPORTED_VERSIONS } from "../scopes";
import { collectParams, knownParams } from "./collect-params";
import { validateAuthorizationParams } from "./validate-params";

const client: RegisteredClient = {
  id: "client-1", name: "DemoApp", secretHash: "x", redirectUris: ["https://rp.example/cb"], postLogoutRedirectUris: [],
  allowedScopes: SUPPORTED_SCOPES.filter((s) => s !== "mc_identity_nationalid"), sectorIdentifier: "rp.example",
  profile: "mobile-connect", expiresInFormat: "timestamp", isPublic: false, active: true,
  authMethod: null, jwks: null, jwksUri: null, secretSealed: null, requireSignedRequestObject: false,
  requirePushedAuthorizationRequests: false, dpopBoundAccessTokens: false, grantTypes: ["authorization_code", "refresh_token"],
  clientCredentialsScopes: [], consentFreeScopes: [], registeredBy: "admin",
  backchannelTokenDeliveryMode: "poll", backchannelClientNotificationEndpoint: null, backchannelAuthRequestSigningAlg: null,
  backchannelUserCodeParameter: false, networkHintsAllowed: false,
};
const publicClient: RegisteredClient = { ...client, id: "public-1", secretHash: null, isPublic: true };
const NOW = 1_800_000_000_000;
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

const base = {
  client_id: "client-1", redirect_uri: "https://rp.example/cb", response_type: "code", scope: "openid",
  state: "st-1", nonce: "n-1", acr_values: "2",
};

function validate(overrides: Record<string, string | undefined> = {}, extra: Array<[string, string]> = [], c = client) {
  const merged = { ...base, ...overrides };
  const pairs = Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined);
  return validateAuthorizationParams({ raw: collectParams([...pairs, ...extra]), client: c, now: NOW });
}

function rejection(overrides: Record<string, string | undefined>, extra: Array<[string, string]> = [], c = client) {
  try {
    validate(overrides, extra, c);
  } catch (err) {
    if (err instanceof OAuthError) return { error: err.error, description: err.description };
    throw err;
  }
  throw new Error("expected the request to be refused");
}

describe("a valid minimal request", () => {
  it("is normalised with the defaults", () => {
    const v = validate({ acr_values: undefined });
    expect(v).toMatchObject({
      clientId: "client-1", clientName: "DemoApp", redirectUri: "https://rp.example/cb", scopes: ["openid"],
      acrValues: ["2"], acr: "2", state: "st-1", nonce: "n-1", display: "page", prompt: [], uiLocales: [],
      claimsLocales: [], version: "mc_v1.1", requestedAt: NOW / 1000,
    });
    expect(v.maxAge).toBeUndefined();
    expect(v.codeChallenge).toBeUndefined();
    expect(v.hints).toEqual({ loginHint: undefined, loginHintToken: undefined, idTokenHint: undefined });
  });

  it("ignores unknown parameters, even repeated or long ones", () => {
    expect(() => validate({}, [["foo", "1"], ["foo", "2"], ["claims", "x".repeat(5000)]])).not.toThrow();
  });

  it("treats empty values as omitted (RFC 6749 §3.1)", () => {
    expect(validate({ display: "", acr_values: "", version: "" })).toMatchObject({ display: "page", acr: "2", version: "mc_v1.1" });
  });
});

describe("duplicated and over-long parameters", () => {
  it("refuses a known parameter sent twice", () => {
    expect(rejection({}, [["scope", "openid"]])).toEqual({
      error: "invalid_request", description: "Multiple parameter names in the authorization request (scope)",
    });
  });

  it("counts a hyphenated alias and its canonical name as a duplicate", () => {
    expect(rejection({ max_age: "10" }, [["max-age", "10"]]).description).toContain("(max_age)");
    expect(rejection({ ui_locales: "en" }, [["ui-locales", "fr"]]).description).toContain("(ui_locales)");
  });

  it("refuses over-long values, naming the parameter", () => {
    expect(rejection({ state: "s".repeat(2049) })).toEqual({
      error: "invalid_request", description: "parameter state is too long (at most 2048 characters)",
    });
    expect(rejection({ nonce: "n".repeat(513) }).description).toContain("nonce");
    expect(rejection({ login_hint: `MSISDN:${"1".repeat(1200)}` }).description).toContain("login_hint");
  });
});

describe("request objects", () => {
  // request and request_uri are resolved before validation (resolve-request-object.ts, RFC 9101); one that
  // reaches it anyway is invalid_request, never the *_not_supported codes (both are supported).
  it.each([
    ["request", "invalid_request"],
    ["request_uri", "invalid_request"],
    ["registration", "registration_not_supported"],
  ])("%s is refused with %s", (name, error) => {
    expect(rejection({ [name]: "x" }).error).toBe(error);
  });
});

describe("response_type and response_mode", () => {
  it.each([undefined, "token", "code id_token", "CODE"])("response_type=%s -> unsupported_response_type", (v) => {
    expect(rejection({ response_type: v })).toEqual({
      error: "unsupported_response_type", description: "MANDATORY parameter response_type is missing or value is invalid",
    });
  });

  it("accepts response_mode=query only", () => {
    expect(() => validate({ response_mode: "query" })).not.toThrow();
    expect(rejection({ response_mode: "fragment" })).toEqual({ error: "invalid_request", description: "response_mode must be query" });
  });
});

describe("scope", () => {
  it("is required", () => {
    expect(rejection({ scope: undefined })).toEqual({ error: "invalid_scope", description: "MANDATORY parameter scope is missing" });
  });

  it("must contain openid, case-sensitively", () => {
    expect(rejection({ scope: "mc_authn" }).error).toBe("invalid_scope");
    expect(rejection({ scope: "OpenID mc_authn" }).description).toBe("The scope value is invalid: openid is required");
  });

  it("refuses scopes the client may not use and unknown ones", () => {
    expect(rejection({ scope: "openid mc_identity_nationalid" }).description)
      .toBe("The scope value is invalid: mc_identity_nationalid is not allowed for this client");
    expect(rejection({ scope: "openid foo" }).error).toBe("invalid_scope");
    expect(rejection({ scope: "openid b\\ad" })).toEqual({ error: "invalid_scope", description: "The scope value is invalid" });
  });

  it("de-duplicates and tolerates repeated spaces; openid alone is authentication", () => {
    expect(validate({ scope: "openid  mc_authn openid" }).scopes).toEqual(["openid", "mc_authn"]);
    expect(validate({ scope: "openid" }).scopes).toEqual(["openid"]);
  });

  it("accepts identity scopes with or without mc_authz / mc_authn", () => {
    expect(validate({ scope: "openid mc_identity_phonenumber" }).scopes).toEqual(["openid", "mc_identity_phonenumber"]);
    expect(validate({ scope: "openid mc_authn mc_identity_signup" }).scopes).toHaveLength(3);
  });
});

describe("state and nonce", () => {
  it("state is required (mobile-connect profile, even with PKCE S256)", () => {
    expect(rejection({ state: undefined, code_challenge: CHALLENGE, code_challenge_method: "S256" }).description)
      .toBe("MANDATORY parameter state is missing");
    expect(rejection({ state: undefined })).toEqual({ error: "invalid_request", description: "MANDATORY parameter state is missing" });
    expect(rejection({ state: "" }).description).toBe("MANDATORY parameter state is missing");
  });

  it("nonce is required (mobile-connect profile)", () => {
    expect(rejection({ nonce: undefined })).toEqual({
      error: "invalid_request", description: "MANDATORY parameter nonce is missing or invalid",
    });
  });
});

describe("state and nonce under the oidc profile (OIDC Core §3.1.2.1, RFC 9700 §2.1)", () => {
  const oidcClient: RegisteredClient = { ...client, profile: "oidc", expiresInFormat: "seconds" };
  const pkce = { code_challenge: CHALLENGE, code_challenge_method: "S256" };

  it("nonce is optional for the code flow, and kept when sent (for the id_token)", () => {
    expect(validate({ nonce: undefined }, [], oidcClient).nonce).toBeUndefined();
    expect(validate({ nonce: "" }, [], oidcClient).nonce).toBeUndefined();
    expect(validate({}, [], oidcClient).nonce).toBe("n-1");
  });

  it("state may be left out when a PKCE S256 challenge is sent", () => {
    const v = validate({ state: undefined, nonce: undefined, ...pkce }, [], oidcClient);
    expect(v).toMatchObject({ codeChallenge: CHALLENGE, codeChallengeMethod: "S256" });
    expect(v.state).toBeUndefined();
    expect(validate({ ...pkce }, [], oidcClient).state).toBe("st-1");
  });

  it("state is required without PKCE, and a challenge that is not S256 does not stand in for it", () => {
    expect(rejection({ state: undefined }, [], oidcClient)).toEqual({
      error: "invalid_request", description: "parameter state is missing: it is required unless PKCE (S256) is used",
    });
    expect(rejection({ state: "", code_challenge_method: "S256" }, [], oidcClient).description)
      .toBe("parameter state is missing: it is required unless PKCE (S256) is used");
    expect(rejection({ state: undefined, code_challenge: CHALLENGE }, [], oidcClient).description)
      .toBe("code_challenge_method must be S256 (plain is not allowed)");
    expect(rejection({ state: undefined, code_challenge: CHALLENGE, code_challenge_method: "plain" }, [], oidcClient)
      .error).toBe("invalid_request");
  });
});

describe("acr_values", () => {
  it("picks the first supported value in order of preference", () => {
    expect(validate({ acr_values: "3 2" })).toMatchObject({ acr: "3", acrValues: ["3", "2"] });
    expect(validate({ acr_values: "4 1 2 3" })).toMatchObject({ acr: "2", acrValues: ["4", "1", "2", "3"] });
  });

  it("defaults to 2 when absent", () => {
    expect(validate({ acr_values: undefined })).toMatchObject({ acr: "2", acrValues: ["2"] });
  });

  it.each(["1", "4", "1 4", "high"])("acr_values=%s -> invalid_request", (v) => {
    expect(rejection({ acr_values: v })).toEqual({
      error: "invalid_request", description: "MANDATORY parameter acr_values are missing or invalid values",
    });
  });
});

describe("display", () => {
  it.each(["page", "popup", "touch", "wap"])("accepts %s", (d) => {
    expect(validate({ display: d }).display).toBe(d);
  });

  it("refuses anything else", () => {
    expect(rejection({ display: "tv" })).toEqual({ error: "invalid_request", description: "Invalid display value" });
  });
});

describe("prompt", () => {
  it.each(["none", "login", "consent", "select_account", "no_seam", "login consent", "consent select_account no_seam"])(
    "accepts %s", (p) => {
      expect(validate({ prompt: p }).prompt).toEqual(p.split(" "));
    });

  it("refuses none combined with another value", () => {
    expect(rejection({ prompt: "none login" })).toEqual({
      error: "invalid_request", description: "Prompt value is invalid: none cannot be combined with other values",
    });
  });

  it("refuses unknown values, accepts mobile (out-of-band) but not with none", () => {
    expect(rejection({ prompt: "bogus" })).toEqual({ error: "invalid_request", description: "Prompt value is invalid" });
    expect(validate({ prompt: "mobile" }).prompt).toEqual(["mobile"]);
    expect(rejection({ prompt: "none mobile" }).error).toBe("invalid_request");
    expect(rejection({ prompt: "Login" }).error).toBe("invalid_request");
  });
});

describe("max_age", () => {
  it("accepts non-negative integers, also as max-age", () => {
    expect(validate({ max_age: "0" }).maxAge).toBe(0);
    expect(validate({}, [["max-age", "3600"]]).maxAge).toBe(3600);
  });

  it.each(["-1", "1.5", "abc", "9999999999", "1e3"])("max_age=%s -> invalid_request", (v) => {
    expect(rejection({ max_age: v })).toEqual({
      error: "invalid_request", description: "max_age must be a non-negative integer number of seconds",
    });
  });
});

describe("ui_locales and claims_locales", () => {
  it("never fail; non-tags are dropped; ui-locales is an alias", () => {
    expect(validate({ ui_locales: "fr-CA en xx-bogus-tag!! 123" }).uiLocales).toEqual(["fr-CA", "en"]);
    expect(validate({}, [["ui-locales", "fr"]]).uiLocales).toEqual(["fr"]);
    expect(validate({ claims_locales: "de ja" }).claimsLocales).toEqual(["de", "ja"]);
  });
});

describe("version", () => {
  it.each([...SUPPORTED_VERSIONS])("accepts %s", (v) => {
    expect(validate({ version: v }).version).toBe(v);
  });

  it.each(["mc_v3", "MC_V1.1", "v1"])("refuses %s", (v) => {
    expect(rejection({ version: v })).toEqual({ error: "invalid_request", description: "MANDATORY parameter version is invalid" });
  });
});

describe("client_name, context and binding_message (mc_authz)", () => {
  const authz = { scope: "openid mc_authz", client_name: "DemoApp", context: "Pay 10 GBP" };

  it("client_name, when sent, must equal the registered name", () => {
    expect(validate({ client_name: "DemoApp" }).clientName).toBe("DemoApp");
    expect(rejection({ client_name: "demoapp" })).toEqual({
      error: "invalid_request", description: "client_name does not match the registered application name",
    });
  });

  it("mc_authz requires client_name and a non-empty context", () => {
    expect(rejection({ ...authz, client_name: undefined }).description).toBe("MANDATORY parameter client_name is missing");
    expect(rejection({ ...authz, context: undefined }).description).toBe("MANDATORY parameter context is missing or invalid");
    expect(rejection({ ...authz, context: "   " }).error).toBe("invalid_request");
  });

  it("binding_message may be empty or absent; both spellings are read", () => {
    expect(validate(authz)).toMatchObject({ context: "Pay 10 GBP", bindingMessage: "" });
    expect(validate({ ...authz, binding_message: "REF-42" }).bindingMessage).toBe("REF-42");
    expect(validate(authz, [["binding message", "REF-43"]]).bindingMessage).toBe("REF-43");
    expect(rejection({ ...authz, binding_message: "a" }, [["binding message", "b"]]).description)
      .toContain("(binding_message)");
  });

  it("enforces the length limits: context 256, binding_message 64 characters", () => {
    expect(validate({ ...authz, context: "é".repeat(256), binding_message: "B".repeat(64) }).bindingMessage).toHaveLength(64);
    expect(rejection({ ...authz, context: "x".repeat(257) })).toEqual({
      error: "invalid_request", description: "context is longer than 256 characters",
    });
    expect(rejection({ ...authz, binding_message: "x".repeat(65) })).toEqual({
      error: "invalid_request", description: "binding_message is longer than 64 characters",
    });
  });

  it("context and binding_message are not kept without mc_authz", () => {
    const v = validate({ context: "x", binding_message: "y" });
    expect(v.context).toBeUndefined();
    expect(v.bindingMessage).toBeUndefined();
  });
});

describe("PKCE", () => {
  it("accepts S256 with a 43..128 character base64url challenge", () => {
    expect(validate({ code_challenge: CHALLENGE, code_challenge_method: "S256" }))
      .toMatchObject({ codeChallenge: CHALLENGE, codeChallengeMethod: "S256" });
  });

  it("refuses plain, a missing method and unknown methods", () => {
    const plain = "code_challenge_method must be S256 (plain is not allowed)";
    expect(rejection({ code_challenge: CHALLENGE, code_challenge_method: "plain" }).description).toBe(plain);
    expect(rejection({ code_challenge: CHALLENGE }).description).toBe(plain);
    expect(rejection({ code_challenge: CHALLENGE, code_challenge_method: "S512" }).error).toBe("invalid_request");
  });

  it("refuses malformed challenges and a method without challenge", () => {
    expect(rejection({ code_challenge: "short", code_challenge_method: "S256" }).description).toBe("code_challenge is invalid");
    expect(rejection({ code_challenge: `${CHALLENGE}+/`, code_challenge_method: "S256" }).error).toBe("invalid_request");
    expect(rejection({ code_challenge_method: "S256" }).description).toBe("code_challenge is missing");
  });

  it("is mandatory for public clients", () => {
    expect(rejection({ client_id: "public-1" }, [], publicClient)).toEqual({
      error: "invalid_request", description: "code_challenge (PKCE S256) is required for public clients",
    });
    expect(() => validate({ code_challenge: CHALLENGE, code_challenge_method: "S256" }, [], publicClient)).not.toThrow();
  });
});

describe("login_hint syntax", () => {
  it.each(["MSISDN:447700900123", "MSISDN:+447700900123", "msisdn:447700900123", "PCR:abcdefghijklmnopqrstuvwxyz012345678901234AB",
    `ENCR_MSISDN:${"ab".repeat(128)}`, "447700900123", "user@example.com"])("accepts %s", (h) => {
    expect(validate({ login_hint: h }).hints.loginHint).toBe(h);
  });

  it.each(["MSISDN:12", "MSISDN:0447700900123", "MSISDN:44 7700", "ENCR_MSISDN:xyz", "ENCR_MSISDN:abc", "PCR:!!"])(
    "refuses %s", (h) => {
      expect(rejection({ login_hint: h })).toEqual({
        error: "invalid_request", description: "Invalid value for login_hint or login_hint_token",
      });
    });

  it("passes login_hint_token and id_token_hint through for resolution", () => {
    expect(validate({ login_hint_token: "a.b.c.d.e", id_token_hint: "x.y.z" }).hints)
      .toEqual({ loginHint: undefined, loginHintToken: "a.b.c.d.e", idTokenHint: "x.y.z" });
  });
});

describe("a client that always needs a fresh code sign-in (the account page's, freshCodeSignIn)", () => {
  const account: RegisteredClient = { ...publicClient, freshCodeSignIn: true };
  const q = { client_id: "public-1", code_challenge: CHALLENGE, code_challenge_method: "S256" };

  it("is prompt=login whatever the request says, and the stored request says so", () => {
    expect(validate(q, [], account)).toMatchObject({ prompt: ["login"], freshCodeSignIn: true });
    expect(validate({ ...q, prompt: "consent" }, [], account).prompt).toEqual(["consent", "login"]);
    expect(validate({ ...q, prompt: "login" }, [], account).prompt).toEqual(["login"]);
    // Other clients are untouched.
    const plain = validate(q, [], publicClient);
    expect(plain.prompt).toEqual([]);
    expect(plain.freshCodeSignIn).toBeUndefined();
  });

  it("cannot be answered with prompt=none (login_required) nor approved on the handset (prompt=mobile)", () => {
    expect(rejection({ ...q, prompt: "none" }, [], account).error).toBe("login_required");
    expect(rejection({ ...q, prompt: "mobile" }, [], account).error).toBe("invalid_request");
  });
});

describe("validation order", () => {
  it("reports duplicates before anything else, then request objects, then response_type, then scope", () => {
    expect(rejection({ response_type: "token" }, [["nonce", "x"]]).description).toContain("Multiple parameter names");
    expect(rejection({ response_type: "token", request: "x" }).error).toBe("invalid_request");
    expect(rejection({ response_type: "token", scope: "bad" }).error).toBe("unsupported_response_type");
    expect(rejection({ scope: "bad", nonce: undefined }).error).toBe("invalid_scope");
  });
});

describe("knownParams", () => {
  it("ignores inherited object names", () => {
    expect(knownParams(collectParams([["__proto__", "x"], ["constructor", "y"]])).size).toBe(0);
  });
});
