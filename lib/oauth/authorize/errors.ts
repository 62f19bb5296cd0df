// The authorization endpoint's errors are members of the one OAuthError hierarchy (lib/oauth/errors.ts):
// `AuthorizePageError` is the one that is never redirected; OIDC Core §3.1.2.6 codes only this endpoint uses.
export { AuthorizePageError, RegistrationNotSupported, RequestNotSupported, RequestUriNotSupported } from "../errors";
