import { z } from "zod";

/*
 * The parameter table of every endpoint that reads request parameters: names, the other names a
 * parameter arrives under, and the longest value accepted. This schema is the only place these are
 * written: the readers check against the table compiled from it (parameter-table.ts) and the table in
 * docs/endpoints.md ("Request parameters") is generated from it (docs-table.ts, tested).
 * Lengths are string lengths (UTF-16 code units), as zod's `max` counts them.
 */

/** What the table records of a parameter beside its length. */
export interface ParameterMeta {
  /**
   * Wire names read as this parameter: the operator SDKs send `max-age` and `ui-locales` with
   * hyphens (field notes), and the interface writes `binding message` with a space.
   */
  aliases?: readonly string[];
  /**
   * A tighter limit in Unicode characters (code points) that the request's validation applies where the
   * value is used (the `mc_authz` texts shown on a phone: lib/oauth/authorize/validate-params.ts).
   */
  characters?: number;
  /** Why the limit is what it is, when that is not obvious (shown in the docs table). */
  note?: string;
}

export const parameterMeta = z.registry<ParameterMeta>();

const param = (max: number, meta: ParameterMeta = {}) => z.string().max(max).optional().register(parameterMeta, meta);

const ON_A_PHONE = "shown on a phone and copied into the id_token with `mc_authz`";

/**
 * /authorize (GET query or POST form, OIDC Core §3.1.2.1): the known parameters, in the order they
 * are checked. Unknown parameters are ignored (OIDC Core §3.1.2.1), whatever their length, as zod's
 * object strips them; the whole request is bounded separately (MAX_URL_BYTES, MAX_BODY_BYTES).
 */
export const AUTHORIZE_PARAMETERS = z.object({
  client_id: param(200),
  redirect_uri: param(2048),
  response_type: param(64),
  response_mode: param(32),
  scope: param(1024),
  state: param(2048),
  nonce: param(512),
  client_name: param(256),
  acr_values: param(64),
  display: param(16),
  prompt: param(128),
  max_age: param(10, { aliases: ["max-age"] }),
  ui_locales: param(256, { aliases: ["ui-locales"] }),
  claims_locales: param(256, { aliases: ["claims-locales"] }),
  id_token_hint: param(4096),
  login_hint: param(1100, { note: "`ENCR_MSISDN:` of a 4096-bit key: 1024 hex digits and the prefix" }),
  login_hint_token: param(4096),
  version: param(32),
  binding_message: param(512, { aliases: ["binding message"], characters: 64, note: ON_A_PHONE }),
  context: param(512, { characters: 256, note: ON_A_PHONE }),
  code_challenge: param(128),
  code_challenge_method: param(16),
  request: param(4096),
  request_uri: param(2048),
  registration: param(4096),
});

/**
 * Every other endpoint that reads parameters (the token, revocation, introspection, logout and
 * resource endpoints, the sign-in screens' forms): any name, known or not, at most 4096 characters.
 */
export const PROTOCOL_PARAMETERS = z.record(z.string(), z.string().max(4096));

/** Which endpoints read parameters under which schema (the first column of the docs table). */
export const PARAMETER_SCHEMAS = [
  { endpoints: ["/authorize"], schema: AUTHORIZE_PARAMETERS },
  {
    endpoints: ["/token", "/revoke", "/introspect", "/logout", "/premiuminfo", "/userinfo", "/interaction/{id}/*"],
    schema: PROTOCOL_PARAMETERS,
  },
] as const;
