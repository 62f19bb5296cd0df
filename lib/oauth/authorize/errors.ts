// OIDC Core §3.1.2.6 codes only the authorization endpoint uses (defined with the others).
export { RegistrationNotSupported, RequestNotSupported, RequestUriNotSupported } from "../errors";

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
