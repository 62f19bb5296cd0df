import { OAuthError } from "../../oauth/errors";

/**
 * A refusal for too many requests at /bc-authorize: HTTP 429 (RFC 6585 §4) with Retry-After and
 * `{"error":"slow_down"}` (docs/ciba.md). CIBA Core §13 has no code for it; `slow_down` is the one the CIBA client
 * already knows (§11) and tells it to wait, not to give up.
 */
export class BackchannelSlowDown extends OAuthError {
  constructor(retryAfter: number, description = `too many backchannel authentication requests; retry after ${retryAfter} seconds`) {
    super("slow_down", description, 429);
    this.headers["Retry-After"] = String(retryAfter);
  }
}
