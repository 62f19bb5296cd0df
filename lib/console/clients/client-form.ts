import type { Params } from "../../http/params";
import { AdminError } from "../../admin/admin-error";
import { CLIENT_AUTH_METHODS, CLIENT_GRANT_TYPES, type ClientAuthMethod } from "../../clients/client-security";
import type { CreateClientInput } from "../../clients/create-client";
import type { ClientChanges } from "../../clients/update-client";

/**
 * The console's client form (create and edit; components/console/clients-form.tsx) read back into the inputs of
 * createClient / updateClient, the admin CLI's functions, which check every value. A form repeats no name
 * (lib/http/params.ts refuses that), so lists are one URI per line, scopes space-separated, and each grant type
 * its own checkbox `grant_<index in CLIENT_GRANT_TYPES>`. Unchecked boxes are absent: the form is always whole.
 */
export function readClientOptions(form: Params): Omit<ClientChanges, "status"> & {
  redirectUris: string[]; postLogoutRedirectUris: string[]; scopes: string[];
} {
  const lines = (name: string) => (form.get(name) ?? "").split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const profile = form.get("profile");
  if (profile !== "oidc" && profile !== "mobile-connect") throw new AdminError("profile must be oidc or mobile-connect");
  const expires = form.get("expires_in") ?? "default";
  if (!["default", "timestamp", "seconds"].includes(expires)) throw new AdminError("expires_in must be timestamp or seconds");
  const method = form.get("auth_method") ?? "default";
  if (method !== "default" && !(CLIENT_AUTH_METHODS as readonly string[]).includes(method)) {
    throw new AdminError(`token endpoint auth method must be one of ${CLIENT_AUTH_METHODS.join(", ")}`);
  }
  const jwksUri = (form.get("jwks_uri") ?? "").trim();
  return {
    redirectUris: lines("redirect_uris"),
    postLogoutRedirectUris: lines("post_logout_redirect_uris"),
    scopes: (form.get("scopes") ?? "").split(/\s+/).filter(Boolean),
    profile,
    expiresInFormat: expires === "default" ? undefined : (expires as "timestamp" | "seconds"),
    authMethod: method === "default" ? null : (method as ClientAuthMethod),
    jwksUri: jwksUri ? jwksUri : null,
    grantTypes: CLIENT_GRANT_TYPES.filter((_, i) => form.get(`grant_${i}`) === "on"),
    requirePushedAuthorizationRequests: form.get("require_par") === "on",
    dpopBoundAccessTokens: form.get("require_dpop") === "on",
    requireSignedRequestObject: form.get("require_signed_request") === "on",
  };
}

/** The create form: the options above plus the name and the client type. */
export function readNewClient(form: Params): CreateClientInput {
  const { authMethod, jwksUri, ...rest } = readClientOptions(form);
  return {
    ...rest, name: (form.get("name") ?? "").trim(), isPublic: form.get("kind") === "public",
    // Defaults are not stored as explicit values: null is "not given" at creation.
    authMethod: authMethod ?? undefined, jwksUri: jwksUri ?? undefined,
  };
}
