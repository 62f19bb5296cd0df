import { issuerBase } from "../../http/issuer-base";

/** The interaction screen of a stored request (OIDC Core §3.1.2.3: the OP's own UI). */
export function interactionUrl(id: string): string {
  return `${issuerBase()}/interaction/${id}`;
}
