/**
 * The contract between the authorization endpoint (`/authorize`, `/authorize/resume/[id]`) and the
 * interaction screens (`/interaction/[id]`): a validated request is stored as an
 * AuthorizationRequest row whose `params` column holds this object as JSON.
 *
 * Lifecycle of AuthorizationRequest.status:
 *   pending        created by /authorize; the screens must sign the subscriber in (or pick an account)
 *   authenticated  the screens signed a subscriber in: `sessionId` + `subscriberId` are set
 *   consented      the subscriber allowed the request on the consent screen (this transaction)
 *   denied         the subscriber refused (consent "Deny" or cancelled sign-in) -> access_denied
 *   completed      a code was issued (terminal; the id can never be resumed again)
 * After each step the screens redirect (303) to `/authorize/resume/{id}`, which decides what is
 * next (another screen, the error redirect, or the code) with the same rules as `/authorize`.
 */
export interface AuthorizationParams {
  clientId: string;
  /** The client's registered short name (what the consent screen shows). */
  clientName: string;
  redirectUri: string;
  /** Requested scopes, de-duplicated, all allowed for the client; always includes `openid`. */
  scopes: string[];
  /** `acr_values` in order of preference, as sent. */
  acrValues: string[];
  /** The assurance level this request must reach: the first supported of `acrValues` ("2" | "3"). */
  acr: "2" | "3";
  /** Absent only for an `oidc`-profile client that used PKCE S256 (lib/clients/client-profile.ts). */
  state?: string;
  /** Absent only for an `oidc`-profile client (optional for the code flow, OIDC Core §3.1.2.1). */
  nonce?: string;
  display: "page" | "popup" | "touch" | "wap";
  /** `prompt` values (none | login | consent | select_account | no_seam). */
  prompt: string[];
  maxAge?: number;
  uiLocales: string[];
  claimsLocales: string[];
  /** The login hint exactly as sent (`MSISDN:...`, `ENCR_MSISDN:...`, `PCR:...`), for hashed_login_hint. */
  loginHint?: string;
  /** The subscriber named by login_hint / login_hint_token / id_token_hint, when one was. */
  hintedSubscriberId?: string;
  /** The MSISDN the hint named (so the sign-in screen can show it masked). */
  hintedMsisdn?: string;
  /**
   * The request carried a valid Basic `Authentication` (or `Authorization`) header, came in a verified
   * request object (RFC 9101) or was pushed by an authenticated client (RFC 9126): its `context` and
   * `binding_message` are the client's own words; otherwise the handset shows them as unverified.
   */
  clientAuthenticated?: boolean;
  bindingMessage?: string;
  context?: string;
  codeChallenge?: string;
  codeChallengeMethod?: "S256";
  version: string;
  /** Seconds since epoch when the request was made (prompt=login / max_age comparisons). */
  requestedAt: number;
  /**
   * The client's RegisteredClient.freshCodeSignIn (the account page), kept with the stored request so the screens
   * honour it too: `prompt` then always holds `login`, and neither the network nor a handset approval signs in.
   */
  freshCodeSignIn?: true;
}
