import { describe, expect, it } from "vitest";
import { AdminError } from "../../admin/admin-error";
import { readClientOptions, readNewClient } from "./client-form";

const form = (fields: Record<string, string>) => new Map(Object.entries(fields));

describe("the console's client form", () => {
  it("reads lists one per line, scopes by spaces, grant types from their checkboxes; defaults as not given", () => {
    const input = readNewClient(form({
      name: " Shop ", kind: "public", redirect_uris: "https://a.example/cb\r\n\n  https://a.example/cb2 ",
      post_logout_redirect_uris: "", scopes: "openid  profile", profile: "oidc", expires_in: "default",
      auth_method: "default", jwks_uri: "", grant_0: "on", grant_1: "on",
    }));
    expect(input).toMatchObject({
      name: "Shop", isPublic: true, redirectUris: ["https://a.example/cb", "https://a.example/cb2"], postLogoutRedirectUris: [],
      scopes: ["openid", "profile"], profile: "oidc", expiresInFormat: undefined, authMethod: undefined, jwksUri: undefined,
      grantTypes: ["authorization_code", "refresh_token"], requirePushedAuthorizationRequests: false,
      dpopBoundAccessTokens: false, requireSignedRequestObject: false,
    });
  });

  it("reads the edit form whole: an unticked box is false, an empty URL clears, the default method is null", () => {
    const changes = readClientOptions(form({
      redirect_uris: "https://a.example/cb", scopes: "openid", profile: "mobile-connect", expires_in: "seconds",
      auth_method: "default", jwks_uri: "", grant_2: "on", require_dpop: "on",
    }));
    expect(changes).toMatchObject({ profile: "mobile-connect", expiresInFormat: "seconds", authMethod: null, jwksUri: null,
      grantTypes: ["client_credentials"], dpopBoundAccessTokens: true, requirePushedAuthorizationRequests: false });
  });

  it("refuses an unknown profile, expires_in format or auth method with an AdminError (400)", () => {
    expect(() => readClientOptions(form({ profile: "x" }))).toThrow(AdminError);
    expect(() => readClientOptions(form({ profile: "oidc", expires_in: "never" }))).toThrow(AdminError);
    expect(() => readClientOptions(form({ profile: "oidc", auth_method: "tls_client_auth" }))).toThrow(AdminError);
  });
});
