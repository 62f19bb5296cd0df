import { OAuthError } from "../oauth/errors";

/** RFC 7591 §3.2.2: one or more redirect_uris is invalid. */
export class InvalidRedirectUri extends OAuthError {
  constructor(description: string) {
    super("invalid_redirect_uri", description, 400);
  }
}

/** RFC 7591 §3.2.2: a client metadata field is invalid, or the fields are inconsistent. */
export class InvalidClientMetadata extends OAuthError {
  constructor(description: string) {
    super("invalid_client_metadata", description, 400);
  }
}

/**
 * RFC 6750 §3.1: the initial access token (RFC 7591 §3) or the registration access token (RFC 7592 §3) is
 * missing, unknown, used up, expired, or not this client's. One answer for all, with the Bearer challenge.
 */
export class RegistrationTokenRefused extends OAuthError {
  constructor(description: string) {
    super("invalid_token", description, 401);
    this.headers["WWW-Authenticate"] = `Bearer error="invalid_token", error_description="${description.replace(/["\\]/g, "")}"`;
  }
}

/** Too many registration requests from one address: 429 with Retry-After (RFC 6585 §4). */
export class RegistrationThrottled extends OAuthError {
  constructor(retryAfter: number) {
    super("invalid_request", `too many registration requests from this address; retry after ${retryAfter} seconds`, 429);
    this.headers["Retry-After"] = String(retryAfter);
  }
}
