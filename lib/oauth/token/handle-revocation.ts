import { recordAuditEvent } from "../../audit/record-audit-event";
import { authenticateClient } from "../../http/client-auth";
import { clientIp } from "../../http/client-ip";
import { bodyParams } from "../../http/params";
import { findClientAccessToken, revokeClientAccessToken } from "../../tokens/client-access-tokens";
import { findAnyToken } from "../../tokens/find-any-token";
import { revokeAccessToken } from "../../tokens/revoke-access-token";
import { revokeTokenFamily } from "../../tokens/revoke-token-family";
import { InvalidRequest } from "../errors";
import { requiredParam } from "./required-param";

/**
 * POST {revocation_endpoint} - RFC 7009. An access token is revoked alone; a refresh token revokes
 * its whole family and the family's access tokens. Unknown, expired or already revoked tokens
 * answer 200 (§2.2). A token issued to another client is refused with `invalid_request` and left
 * alone: §2.1 says the server "verifies whether the token was issued to the client making the
 * revocation request. If this validation fails, the request is refused and the client is informed
 * of the error".
 */
export async function handleRevocation(req: Request): Promise<Response> {
  const params = await bodyParams(req);
  const client = await authenticateClient({ headers: req.headers, params, endpoint: "revocation" });
  const token = requiredParam(params, "token");
  const found = await findAnyToken({ token, hint: params.get("token_type_hint") });
  if (found) {
    if (found.row.clientId !== client.id) throw new InvalidRequest("the token was not issued to this client");
    if (found.kind === "refresh_token") await revokeTokenFamily({ familyId: found.row.familyId });
    else await revokeAccessToken({ tokenHash: found.row.tokenHash });
    await recordAuditEvent({ type: "token_revoked", outcome: "success", subscriberId: found.row.subscriberId,
      clientId: client.id, ip: clientIp(req.headers), detail: { token_type: found.kind, reason: "revocation_request" } });
  } else {
    // A client_credentials token (its own table, looked for last): the same rule, no subscriber.
    const row = await findClientAccessToken({ token });
    if (row) {
      if (row.clientId !== client.id) throw new InvalidRequest("the token was not issued to this client");
      await revokeClientAccessToken({ tokenHash: row.tokenHash });
      await recordAuditEvent({ type: "token_revoked", outcome: "success", clientId: client.id, ip: clientIp(req.headers),
        detail: { token_type: "access_token", grant: "client_credentials", reason: "revocation_request" } });
    }
  }
  return new Response(null, { status: 200, headers: { "Cache-Control": "no-store", Pragma: "no-cache" } });
}
