import { dpopChallenge } from "../dpop/dpop-errors";
import { OAuthError } from "../errors";

/** RFC 6750 §3: error and error_description use %x20-21 / %x23-5B / %x5D-7E only. */
const quoted = (s: string) => s.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, "");

/**
 * The `WWW-Authenticate: Bearer` challenge of an error (RFC 6750 §3) with both `error` and
 * `error_description`: the operator SDKs read only this header (regex `error\s?=\s?"(.*?)"`).
 */
export function bearerChallenge(err: OAuthError, realm: string): string {
  return `Bearer realm="${quoted(realm)}", error="${quoted(err.error)}", error_description="${quoted(err.description)}"`;
}

type Handler = (req: Request) => Promise<Response>;

/**
 * Wraps a protected-resource handler so every OAuth error it throws carries a challenge: the Bearer one with
 * the error, followed by `DPoP algs="..."` (RFC 9449 §7.1: both schemes are accepted); for a request that used
 * the DPoP scheme, the DPoP challenge with the error. Errors that set their own (DPoP proof errors) keep it.
 */
export function withBearerChallenge(realm: string, handler: Handler): Handler {
  return async (req) => {
    try {
      return await handler(req);
    } catch (err) {
      if (err instanceof OAuthError && !err.headers["WWW-Authenticate"]) {
        err.headers["WWW-Authenticate"] = /^DPoP\s/i.test(req.headers.get("authorization") ?? "")
          ? dpopChallenge(err)
          : `${bearerChallenge(err, realm)}, ${dpopChallenge()}`;
      }
      throw err;
    }
  };
}
