import { InvalidRequest } from "../errors";

/**
 * `prompt` values accepted (OIDC Core §3.1.2.1 plus the field's `no_seam`: authenticate explicitly,
 * never by seamless network identification; this operator has none, so it changes nothing).
 * `mobile` (Mobile Connect): no UI on the consumption device, the request is held open until the
 * subscriber answers on the handset (start-mobile-authorization.ts).
 */
const PROMPTS = ["none", "login", "consent", "select_account", "no_seam", "mobile"];

/** Space-delimited, case-sensitive; `none` with any other value is `invalid_request`. */
export function validatePrompt(value: string | undefined): string[] {
  if (value === undefined) return [];
  const prompt = [...new Set(value.split(" ").filter(Boolean))];
  if (!prompt.every((v) => PROMPTS.includes(v))) throw new InvalidRequest("Prompt value is invalid");
  if (prompt.includes("none") && prompt.length > 1) {
    throw new InvalidRequest("Prompt value is invalid: none cannot be combined with other values");
  }
  return prompt;
}
