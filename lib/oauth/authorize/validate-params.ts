/*
 * Authorization request parameters: which of the interface's "required" ones are truly required.
 * The listing marks every parameter but display and prompt as required and admits it is loose; the
 * decisions below (written down in docs/interface.md) keep the field's SDKs and the OpenID conformance suite
 * working. A parameter with an empty value counts as omitted (RFC 6749 §3.1).
 *
 * | parameter          | decision                                                                   |
 * |--------------------|----------------------------------------------------------------------------|
 * | client_id          | required; unknown or disabled -> error page, never redirected               |
 * | redirect_uri       | required, exact string match to a registered URI -> else error page        |
 * | response_type      | required, `code` only -> unsupported_response_type                          |
 * | scope              | required, must contain `openid`, only the client's allowed scopes          |
 * | state              | by the client's profile (lib/clients/client-profile.ts): `mobile-connect`  |
 * |                    | required (CSRF defence; every SDK sends it); `oidc` required unless a PKCE |
 * |                    | S256 challenge is sent (RFC 9700 §2.1 lets PKCE carry the CSRF defence)    |
 * |                    | -> invalid_request                                                         |
 * | nonce              | `mobile-connect` required (the interface); `oidc` optional for the code    |
 * |                    | flow (OIDC Core §3.1.2.1), and when sent it is still copied into the       |
 * |                    | id_token for the client to check                                           |
 * | acr_values         | optional, default "2": SDKs always send it but plain OIDC clients (and the |
 * |                    | conformance suite) do not; "2" is the lowest level offered. Sent with no   |
 * |                    | supported value (2 or 3) -> invalid_request                                |
 * | client_name        | required only with `mc_authz` (the SDKs send it only for authorization,    |
 * |                    | where the consent screen shows it); whenever sent it must equal the        |
 * |                    | registered name exactly. Screens always show the registered name           |
 * | context            | required (non-empty) with `mc_authz`; at most 256 characters               |
 * | binding_message    | optional even with `mc_authz`: the interface allows an empty value and     |
 * |                    | SDKs drop empty parameters, so absent and empty are the same; at most 64   |
 * | version            | optional, default `mc_v1.1`; values outside SUPPORTED_VERSIONS refused     |
 * | display, prompt    | optional (as listed)                                                       |
 * | max_age, ui_locales, claims_locales, id_token_hint, login_hint, login_hint_token               |
 * |                    | optional: hints and preferences (OIDC Core §3.1.2.1); the three login      |
 * |                    | hints are alternatives, so they cannot all be mandatory                    |
 * | code_challenge     | required for public clients; `S256` only (RFC 9700 §2.1.1)                 |
 * | request,           | a signed request object (RFC 9101) or a pushed request (RFC 9126), read    |
 * | request_uri        | before this (docs/signed-requests.md); never seen here                     |
 * | registration       | refused with registration_not_supported (OIDC Core §3.1.2.6)               |
 * | anything else      | ignored (OIDC Core §3.1.2.1)                                               |
 */
import type { RegisteredClient } from "../../clients/get-client";
import { AUTHORIZE_TABLE } from "../../parameters/parameter-table";
import {
  InvalidRequest, InvalidScope, LoginRequired, RegistrationNotSupported, UnsupportedResponseType,
} from "../errors";
import { ACR_VALUES, DISPLAY_VALUES, SUPPORTED_VERSIONS } from "../scopes";
import { parseLoginHint } from "../hints/parse-login-hint";
import { knownParams, type RawParams } from "./collect-params";
import { validatePkce } from "./validate-pkce";
import { validatePrompt } from "./validate-prompt";
import type { AuthorizationParams } from "./types";
import { languageTagList } from "../../i18n/request-language";
import { networkApiScopeProblem } from "../../api-consent/check-scopes";

/** The hints as sent; resolving them needs keys and the database (lib/oauth/hints/resolve-hints.ts). */
export interface RawHints {
  loginHint?: string;
  loginHintToken?: string;
  idTokenHint?: string;
}

export type ValidatedRequest = Omit<AuthorizationParams, "loginHint" | "hintedSubscriberId" | "hintedMsisdn"> & {
  hints: RawHints;
};

/**
 * Validates every parameter of an authorization request whose client and redirect URI are already
 * verified (pure: no I/O). Throws the OAuthError to redirect; returns the normalised request.
 */
export function validateAuthorizationParams({ raw, client, now }: {
  raw: RawParams; client: RegisteredClient; now: number;
}): ValidatedRequest {
  const p = knownParams(raw);
  // request / request_uri were replaced by their parameters before this (resolve-request-object.ts,
  // RFC 9101 §5); at the PAR endpoint a request_uri is refused before (RFC 9126 §2.1).
  if (p.has("request") || p.has("request_uri")) throw new InvalidRequest("request and request_uri cannot be used here");
  if (p.has("registration")) throw new RegistrationNotSupported("The registration parameter is not supported");
  if (p.get("response_type") !== "code") {
    throw new UnsupportedResponseType("MANDATORY parameter response_type is missing or value is invalid");
  }
  const mode = p.get("response_mode");
  if (mode !== undefined && mode !== "query") throw new InvalidRequest("response_mode must be query");
  const scopes = validateScope(p.get("scope"), client);
  const oidc = client.profile === "oidc";
  const state = p.get("state");
  // Under `oidc` a challenge stands in for state; validatePkce below refuses it unless its method is S256.
  if (!state && !(oidc && p.get("code_challenge") !== undefined)) {
    throw new InvalidRequest(oidc ? "parameter state is missing: it is required unless PKCE (S256) is used"
      : "MANDATORY parameter state is missing");
  }
  const nonce = p.get("nonce");
  if (!nonce && !oidc) throw new InvalidRequest("MANDATORY parameter nonce is missing or invalid");
  const { acrValues, acr } = validateAcrValues(p.get("acr_values"));
  const display = p.get("display") ?? "page";
  if (!(DISPLAY_VALUES as readonly string[]).includes(display)) throw new InvalidRequest("Invalid display value");
  const prompt = clientPrompt(validatePrompt(p.get("prompt")), client);
  const maxAge = validateMaxAge(p.get("max_age"));
  const version = p.get("version") ?? "mc_v1.1";
  if (!(SUPPORTED_VERSIONS as readonly string[]).includes(version)) {
    throw new InvalidRequest("MANDATORY parameter version is invalid");
  }
  const authz = validateAuthorization(p, scopes, client);
  const pkce = validatePkce({ challenge: p.get("code_challenge"), method: p.get("code_challenge_method"), client });
  const loginHint = p.get("login_hint");
  if (loginHint !== undefined) parseLoginHint(loginHint); // syntax now; resolution needs I/O
  return {
    clientId: client.id, clientName: client.name, redirectUri: p.get("redirect_uri")!, scopes, acrValues, acr,
    state, nonce, display: display as AuthorizationParams["display"], prompt, maxAge,
    uiLocales: languageTagList(p.get("ui_locales")), claimsLocales: languageTagList(p.get("claims_locales")),
    ...authz, ...pkce, version, requestedAt: Math.floor(now / 1000),
    ...(client.freshCodeSignIn ? { freshCodeSignIn: true as const } : {}),
    hints: { loginHint, loginHintToken: p.get("login_hint_token"), idTokenHint: p.get("id_token_hint") },
  };
}

/**
 * The prompt a client's own rule adds to the request's: a client whose every sign-in must be a fresh one with the
 * text-message code (RegisteredClient.freshCodeSignIn, the account page) is `prompt=login` whatever the query says,
 * so no session left in the browser answers it (choose-session.ts) and the network never signs it in
 * (authenticate-by-network.ts). `prompt=none` can then never be answered (`login_required` at once), and
 * `prompt=mobile`, a handset approval instead of the code, is refused.
 */
function clientPrompt(prompt: string[], client: RegisteredClient): string[] {
  if (!client.freshCodeSignIn) return prompt;
  if (prompt.includes("none")) throw new LoginRequired("This client always needs a fresh sign-in: prompt=none cannot be answered");
  if (prompt.includes("mobile")) {
    throw new InvalidRequest("prompt=mobile is not available to this client: it signs in with a code sent by text message");
  }
  return prompt.includes("login") ? prompt : [...prompt, "login"];
}

/** RFC 6749 §3.3 scope-token characters. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export function validateScope(scope: string | undefined, client: RegisteredClient): string[] {
  if (!scope) throw new InvalidScope("MANDATORY parameter scope is missing");
  const scopes = [...new Set(scope.split(" ").filter(Boolean))];
  if (!scopes.every((s) => SCOPE_TOKEN.test(s))) throw new InvalidScope("The scope value is invalid");
  // case-sensitive (interface `scope` row): "OpenID" is not "openid"
  if (!scopes.includes("openid")) throw new InvalidScope("The scope value is invalid: openid is required");
  // Network API scopes (docs/network-apis.md): exactly one purpose, no fused form (the declarations are read later,
  // by checkNetworkApiScopes, with I/O); checked before allowedScopes so the refusal names the rule that was broken.
  const problem = networkApiScopeProblem(scopes, client.allowedScopes);
  if (problem) throw new InvalidScope(`The scope value is invalid: ${problem}`);
  const refused = scopes.find((s) => !client.allowedScopes.includes(s));
  if (refused) throw new InvalidScope(`The scope value is invalid: ${refused.slice(0, 64)} is not allowed for this client`);
  return scopes;
}

export function validateAcrValues(value: string | undefined): { acrValues: string[]; acr: "2" | "3" } {
  const acrValues = value === undefined ? ["2"] : value.split(" ").filter(Boolean);
  // in order of preference: the first level this operator offers (interface `acr_values` row)
  const acr = acrValues.find((v): v is "2" | "3" => (ACR_VALUES as readonly string[]).includes(v));
  if (!acr) throw new InvalidRequest("MANDATORY parameter acr_values are missing or invalid values");
  return { acrValues, acr };
}

function validateMaxAge(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value) || Number(value) > 2 ** 31 - 1) {
    throw new InvalidRequest("max_age must be a non-negative integer number of seconds");
  }
  return Number(value);
}

/** mc_authz (authorization): the consent screen shows client_name, context and binding_message. */
function validateAuthorization(p: Map<string, string>, scopes: string[], client: RegisteredClient) {
  const clientName = p.get("client_name");
  if (clientName !== undefined && clientName !== client.name) {
    throw new InvalidRequest("client_name does not match the registered application name");
  }
  if (!scopes.includes("mc_authz")) return {};
  if (clientName === undefined) throw new InvalidRequest("MANDATORY parameter client_name is missing");
  const context = p.get("context");
  if (!context?.trim()) throw new InvalidRequest("MANDATORY parameter context is missing or invalid");
  const bindingMessage = p.get("binding_message") ?? "";
  // Our limits (the interface sets none): both are shown on a phone screen and copied into the id_token.
  if ([...context].length > MAX_CONTEXT) throw new InvalidRequest(`context is longer than ${MAX_CONTEXT} characters`);
  if ([...bindingMessage].length > MAX_BINDING_MESSAGE) {
    throw new InvalidRequest(`binding_message is longer than ${MAX_BINDING_MESSAGE} characters`);
  }
  return { context, bindingMessage };
}

/**
 * Length limits of the mc_authz texts, in characters (docs/endpoints.md, "Out-of-band authorization"),
 * from the parameter table (lib/parameters/parameter-schema.ts).
 */
export const MAX_CONTEXT = AUTHORIZE_TABLE.characters.get("context")!;
export const MAX_BINDING_MESSAGE = AUTHORIZE_TABLE.characters.get("binding_message")!;
