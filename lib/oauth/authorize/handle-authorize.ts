import { runPipeline } from "./pipeline";

/**
 * GET / POST {authorization_endpoint} (interface "Authorization endpoint"; OIDC Core §3.1.2): the
 * authorization pipeline's `authorize` steps (pipeline.ts): read the request (a signed request object
 * or a pushed request replaces its parameters: docs/signed-requests.md), verify client_id and
 * redirect_uri (errors on our page), then the optional Basic header, every parameter and the hints
 * (errors redirected with state and iss), then the code, the interaction screen, the prompt=none
 * error, or (prompt=mobile) the out-of-band wait for the handset.
 */
export function handleAuthorize(req: Request): Promise<Response> {
  return runPipeline("authorize", req);
}
