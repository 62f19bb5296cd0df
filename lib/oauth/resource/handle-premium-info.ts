import { authenticateClient } from "../../http/client-auth";
import { PATHS } from "../../http/endpoints";
import { json } from "../../http/respond";
import { premiumInfoRecord } from "../claims";
import { InvalidToken, OAuthError } from "../errors";
import { IDENTITY_SCOPES, parseScope } from "../scopes";
import { authenticateAccessToken } from "./authenticate-access-token";
import { checkTokenBinding } from "./check-token-binding";
import { withBearerChallenge } from "./bearer-challenge";
import { requireActiveSubscriber } from "./require-active-subscriber";
import { readBearerToken } from "./read-bearer-token";

/** The interface's text for a grant without identity scope ("Errors", premium info row). */
export const NO_IDENTITY_SCOPE = "The selected scopes do not allow access to premium info";

/**
 * GET/POST {premiuminfo_endpoint}: the premium info record of the token's subscriber, the union of
 * the identity scopes granted. One read: the access token with its subscriber.
 */
export const handlePremiumInfo = withBearerChallenge("premiuminfo", async (req) => {
  const { token, scheme } = await readBearerToken(req, { queryNames: ["token"] });
  const { row, subscriber: owner } = await authenticateAccessToken({ token });
  await checkTokenBinding({ req, row, token, scheme, path: PATHS.premiuminfo });
  // The interface's `Authentication: Basic`, when sent, must name the client the token was issued to.
  if (hasBasicCredentials(req.headers)) {
    const client = await authenticateClient({ headers: req.headers, params: new Map(), endpoint: "premiuminfo" });
    if (client.id !== row.clientId) throw new InvalidToken("The access token was not issued to this client");
  }
  const scopes = parseScope(row.scope);
  if (!scopes.some((s) => (IDENTITY_SCOPES as readonly string[]).includes(s))) {
    // The interface fixes 401 (not RFC 6750's 403) for this case.
    throw new OAuthError("access_denied", NO_IDENTITY_SCOPE, 401);
  }
  const subscriber = requireActiveSubscriber(owner);
  return json(premiumInfoRecord(subscriber, scopes), { noStore: true });
});

function hasBasicCredentials(headers: Headers): boolean {
  return [headers.get("authentication"), headers.get("authorization")].some((h) => h && /^Basic\s/i.test(h));
}
