import { getClient } from "../../clients/get-client";
import { PATHS } from "../../http/endpoints";
import { json } from "../../http/respond";
import { pairwiseSubject } from "../../subjects/pairwise-subject";
import { userinfoClaims } from "../claims";
import { InsufficientScope, InvalidToken } from "../errors";
import { parseScope } from "../scopes";
import { authenticateAccessToken } from "./authenticate-access-token";
import { checkTokenBinding } from "./check-token-binding";
import { withBearerChallenge } from "./bearer-challenge";
import { requireActiveSubscriber } from "./require-active-subscriber";
import { readBearerToken } from "./read-bearer-token";

/**
 * GET/POST {userinfo_endpoint} - OIDC Core §5.3: `sub` (the same pairwise PCR as the id_token) and
 * the standard claims of the granted profile/email/address/phone scopes, with OIDC types.
 * The token comes from the Authorization header or a POST body (RFC 6750 §2.1, §2.2).
 */
export const handleUserinfo = withBearerChallenge("userinfo", async (req) => {
  const { token, scheme } = await readBearerToken(req);
  const { row, subscriber: owner } = await authenticateAccessToken({ token });
  await checkTokenBinding({ req, row, token, scheme, path: PATHS.userinfo });
  const scopes = parseScope(row.scope);
  if (!scopes.includes("openid")) throw new InsufficientScope("The access token was not issued for the openid scope");
  const subscriber = requireActiveSubscriber(owner);
  const client = await getClient({ clientId: row.clientId });
  if (!client?.active) throw new InvalidToken("The access token is invalid, expired or revoked");
  const sub = pairwiseSubject({ subscriberId: subscriber.id, sectorIdentifier: client.sectorIdentifier });
  return json({ sub, ...userinfoClaims(subscriber, scopes) }, { noStore: true });
});
