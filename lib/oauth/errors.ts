/**
 * One class per OAuth 2.0 / OpenID Connect error code (RFC 6749 §4.1.2.1, §5.2; RFC 6750 §3.1;
 * OIDC Core §3.1.2.6). Each carries its HTTP status and whether it may be sent to a redirect URI.
 * Every error the service answers with is one of these; `lib/http/respond.ts` (JSON endpoints) and
 * `lib/oauth/authorize/respond-with-error.ts` (the authorization endpoint) turn them into responses.
 */
export class OAuthError extends Error {
  readonly error: string;
  readonly status: number;
  readonly description: string;
  /** Headers the response must carry (e.g. WWW-Authenticate). */
  headers: Record<string, string> = {};
  /**
   * Whether the authorization endpoint may send this error to the client's redirect URI once that URI
   * is verified (RFC 6749 §4.1.2.1). False for `AuthorizePageError`: shown on our own page only.
   */
  readonly redirectable: boolean = true;

  constructor(error: string, description: string, status = 400) {
    super(`${error}: ${description}`);
    this.error = error;
    this.description = description;
    this.status = status;
  }

  toJSON() {
    return { error: this.error, error_description: this.description };
  }
}

const define = (code: string, status = 400) =>
  class extends OAuthError {
    constructor(description: string) {
      super(code, description, status);
    }
  };

export const InvalidRequest = define("invalid_request");
export const InvalidClient = define("invalid_client", 401);
export const InvalidGrant = define("invalid_grant");
export const UnauthorizedClient = define("unauthorized_client");
export const UnsupportedGrantType = define("unsupported_grant_type");
export const UnsupportedResponseType = define("unsupported_response_type");
export const InvalidScope = define("invalid_scope");
export const AccessDenied = define("access_denied", 403);
export const InvalidToken = define("invalid_token", 401);
export const InsufficientScope = define("insufficient_scope", 403);
export const LoginRequired = define("login_required");
export const ConsentRequired = define("consent_required");
export const InteractionRequired = define("interaction_required");
export const AccountSelectionRequired = define("account_selection_required");
export const UnmetAuthenticationRequirements = define("unmet_authentication_requirements");
export const UnsupportedTokenType = define("unsupported_token_type");
export const TemporarilyUnavailable = define("temporarily_unavailable", 503);
export const ServerError = define("server_error", 500);
/** The spec's name for an invalid `id_token_hint` (interface "Errors": `login_error`). */
export const LoginError = define("login_error");
/** `invalid_request` with the HTTP status of an oversized body (RFC 9110 §15.5.14) or URL (§15.5.15). */
export const RequestTooLarge = define("invalid_request", 413);
export const UriTooLong = define("invalid_request", 414);
/** `invalid_request` with 415 Unsupported Media Type (RFC 9110 §15.5.16): a body in a format the endpoint does not read. */
export const UnsupportedMediaType = define("invalid_request", 415);
/**
 * Client authentication refused because of too many recent failures: 429 Too Many Requests
 * (RFC 6585 §4) with Retry-After. The code stays `invalid_client` (RFC 6749 §5.2, "client
 * authentication failed"): it is the only standard token-endpoint code for it that every client
 * library handles; `slow_down` belongs to device-flow polling (RFC 8628 §3.5).
 */
export class ClientAuthThrottled extends OAuthError {
  constructor(retryAfter: number) {
    super("invalid_client", `too many failed client authentications; retry after ${retryAfter} seconds`, 429);
    this.headers["Retry-After"] = String(retryAfter);
  }
}
export const RequestNotSupported = define("request_not_supported");
export const RequestUriNotSupported = define("request_uri_not_supported");
export const RegistrationNotSupported = define("registration_not_supported");

// OpenID Connect CIBA Core 1.0 §13 (the authentication request) and §11 (the token request), docs/ciba.md.
// At the token endpoint every error is 400 (§11), access_denied included; at /bc-authorize access_denied is 403.
export const UnknownUserId = define("unknown_user_id");
export const ExpiredLoginHintToken = define("expired_login_hint_token");
export const MissingUserCode = define("missing_user_code");
export const InvalidUserCode = define("invalid_user_code");
export const InvalidBindingMessage = define("invalid_binding_message");
export const AuthorizationPending = define("authorization_pending");
export const SlowDown = define("slow_down");
export const ExpiredToken = define("expired_token");
export const TokenAccessDenied = define("access_denied");

/**
 * A failure of the authorization endpoint that must be shown on our own error page and never sent to a
 * redirect URI, whatever its code: the client or redirect URI cannot be trusted (RFC 6749 §4.1.2.1), the
 * request cannot be read, or the interaction id cannot be resumed. Its status is the page's.
 */
export class AuthorizePageError extends OAuthError {
  override readonly redirectable = false;
}
