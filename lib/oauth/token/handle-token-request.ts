import { authenticateClient } from "../../http/client-auth";
import { bodyParams } from "../../http/params";
import { json } from "../../http/respond";
import { dpopResponseHeaders, tokenRequestProof } from "../dpop/token-request-proof";
import { InvalidRequest, UnauthorizedClient, UnsupportedGrantType } from "../errors";
import { GRANT_TYPES, GRANTS, type GrantType } from "./grants";
import { tokenResponseBody } from "./token-set";
import { recordTokensIssued } from "../../metrics/record";

/** The `grant` label of ois_tokens_issued_total per grant_type. */
const GRANT_LABEL: Record<GrantType, string> = { authorization_code: "authorization_code", refresh_token: "refreshed",
  client_credentials: "client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer": "jwt_bearer",
  "urn:openid:params:grant-type:ciba": "ciba" };

/** `grant_type must be authorization_code or refresh_token`, from the registered grants. */
const UNSUPPORTED = `grant_type must be ${GRANT_TYPES.join(" or ")}`;

/**
 * POST {token_endpoint} - RFC 6749 §3.2, OIDC Core §3.1.3. The body is the interface's JSON object
 * or a standard form; the client authenticates with `Authentication`/`Authorization: Basic` or
 * client_secret_post. Errors are thrown as OAuth errors (JSON per RFC 6749 §5.2).
 */
export async function handleTokenRequest(req: Request): Promise<Response> {
  const params = await bodyParams(req);
  const client = await authenticateClient({ headers: req.headers, params, endpoint: "token" });
  const grantType = params.get("grant_type");
  if (!grantType) throw new InvalidRequest("missing required parameter grant_type");
  if (!Object.hasOwn(GRANTS, grantType)) {
    throw new UnsupportedGrantType(UNSUPPORTED);
  }
  // RFC 6749 §5.2: a grant the client is not registered for (Client.grantTypes; the cached record, no statement).
  if (!(client.grantTypes as string[]).includes(grantType)) {
    throw new UnauthorizedClient(`the client is not registered for the grant type ${grantType}`);
  }
  const now = new Date();
  const dpop = await tokenRequestProof({ req, client, now });
  const tokens = await GRANTS[grantType as GrantType]({ client, params, now, dpop });
  recordTokensIssued(GRANT_LABEL[grantType as GrantType]);
  return json(tokenResponseBody({ tokens, client, now }), { noStore: true, headers: dpopResponseHeaders(dpop, now) });
}
