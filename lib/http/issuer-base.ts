import { config } from "../config";

/**
 * The issuer without its trailing slash, to put a path after it (`${issuerBase()}/authorize`). The
 * issuer may carry a path prefix; every URL of this service lives under it, as the metadata's do
 * (OIDC Discovery 1.0 §4.1: the configuration is at the issuer + `/.well-known/...`).
 * `issuer` defaults to the configured ISSUER; discovery passes the one it describes.
 */
export function issuerBase(issuer: string = config().ISSUER): string {
  return issuer.replace(/\/$/, "");
}
