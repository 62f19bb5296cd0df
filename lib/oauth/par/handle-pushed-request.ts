import { storePushedRequest } from "../../authorization-request/pushed-request";
import { authenticateClient } from "../../http/client-auth";
import { mediaType } from "../../http/media-type";
import { readBodyText, toParams } from "../../http/params";
import { json } from "../../http/respond";
import { InvalidRequest } from "../errors";
import { checkClientAndRedirect } from "../authorize/check-client";
import { collectParams } from "../authorize/collect-params";
import { requestObjectPairs } from "../authorize/request-object";
import { validateAuthorizationParams } from "../authorize/validate-params";
import { checkNetworkApiScopes } from "../../api-consent/check-scopes";

/** Client authentication parameters: never part of the stored authorization request. */
const CLIENT_AUTH = new Set(["client_secret", "client_assertion", "client_assertion_type"]);

/**
 * POST {pushed_authorization_request_endpoint} (RFC 9126): the client authenticates as at the token
 * endpoint (lib/http/client-auth.ts, with its failure throttling) and pushes the parameters of an
 * authorization request, in the form body or as a signed request object (`request`, RFC 9126 §3: then
 * only the object's parameters are used). They pass the very checks of /authorize (the registered
 * redirect_uri, then every parameter) and are stored for PUSHED_REQUEST_TTL_SECONDS; the answer is
 * 201 with a one-use `request_uri` for /authorize. Errors are JSON (RFC 9126 §2.3).
 */
export async function handlePushedAuthorizationRequest(req: Request): Promise<Response> {
  if (mediaType(req) !== "application/x-www-form-urlencoded") {
    throw new InvalidRequest("the body must be application/x-www-form-urlencoded");
  }
  const pairs = [...new URLSearchParams(await readBodyText(req))];
  const params = toParams(pairs);
  const client = await authenticateClient({ headers: req.headers, params, endpoint: "pushedAuthorization" });
  if (params.has("request_uri")) throw new InvalidRequest("request_uri must not be sent to this endpoint (RFC 9126 §2.1)");
  const request = params.get("request");
  const signed = request !== undefined && request !== "";
  const authPairs = signed ? await requestObjectPairs({ client, jwt: request })
    : pairs.filter(([name]) => !CLIENT_AUTH.has(name));
  if (!authPairs.some(([name]) => name === "client_id")) authPairs.push(["client_id", client.id]);
  if (client.requireSignedRequestObject && !signed) {
    throw new InvalidRequest("This client must send its authorization requests as a signed request object");
  }
  const raw = collectParams(authPairs);
  const checked = await checkClientAndRedirect(raw);
  if (checked.client.id !== client.id) throw new InvalidRequest("client_id is not the authenticated client's");
  const validated = validateAuthorizationParams({ raw, client, now: Date.now() });
  await checkNetworkApiScopes(validated.scopes, client); // the operator's purpose declarations (docs/network-apis.md)
  // A public client authenticates with its client_id only: what it pushed is its own only when signed.
  const authenticated = signed || !(client.isPublic && !client.secretHash);
  const { requestUri, expiresIn } = await storePushedRequest({ clientId: client.id,
    request: { pairs: authPairs, signed, authenticated } });
  return json({ request_uri: requestUri, expires_in: expiresIn }, { status: 201, noStore: true });
}
