import * as oidc from "openid-client";
import { issuerBase } from "../http/issuer-base";
import { PLAYGROUND_CLIENT_ID, playgroundClientSecret } from "./playground-settings";

let configuration: Promise<oidc.Configuration> | undefined;

/**
 * openid-client v6 configured from our discovery document, for what next-auth v4 has no helper for
 * (refresh, revocation, end-session URL, protected resources). `allowInsecureRequests` only when the
 * issuer itself is http (local runs and tests). Discovered once per process; retried after a failure.
 */
export function operatorClient(): Promise<oidc.Configuration> {
  configuration ??= (async () => {
    const issuer = new URL(issuerBase());
    const secret = playgroundClientSecret();
    const insecure = issuer.protocol === "http:";
    return oidc.discovery(issuer, PLAYGROUND_CLIENT_ID, { client_secret: secret }, oidc.ClientSecretBasic(secret), {
      execute: insecure ? [oidc.allowInsecureRequests] : [],
    });
  })().catch((err: unknown) => {
    configuration = undefined;
    throw err;
  });
  return configuration;
}
