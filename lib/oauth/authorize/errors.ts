import { OAuthError } from "../errors";

// OIDC Core §3.1.2.6 error codes only the authorization endpoint uses. They belong beside the
// others in lib/oauth/errors.ts; kept here until that file is free to edit.
export class RequestNotSupported extends OAuthError {
  constructor(description: string) {
    super("request_not_supported", description);
  }
}
export class RequestUriNotSupported extends OAuthError {
  constructor(description: string) {
    super("request_uri_not_supported", description);
  }
}
export class RegistrationNotSupported extends OAuthError {
  constructor(description: string) {
    super("registration_not_supported", description);
  }
}

/**
 * A failure that must be shown on our own error page and never sent to a redirect URI: the client
 * or redirect URI cannot be trusted (RFC 6749 §4.1.2.1), or the interaction id cannot be resumed.
 */
export class AuthorizePageError extends Error {
  readonly error: string;
  readonly description: string;
  readonly status: number;

  constructor(error: string, description: string, status = 400) {
    super(`${error}: ${description}`);
    this.error = error;
    this.description = description;
    this.status = status;
  }
}
