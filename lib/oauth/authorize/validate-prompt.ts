import { InvalidRequest } from "../errors";

/**
 * `prompt` values accepted (OIDC Core §3.1.2.1 plus the field's `no_seam`: authenticate explicitly,
 * never by seamless network identification; this operator has none, so it changes nothing).
 * `mobile` (hold the request open for out-of-band authorization on the handset) is refused until
 * the out-of-band flow exists: showing our screens instead would break its "no UI" promise.
 */
const PROMPTS = ["none", "login", "consent", "select_account", "no_seam"];

/** Space-delimited, case-sensitive; `none` with any other value is `invalid_request`. */
export function validatePrompt(value: string | undefined): string[] {
  if (value === undefined) return [];
  const prompt = [...new Set(value.split(" ").filter(Boolean))];
  if (prompt.includes("mobile")) {
    throw new InvalidRequest("Prompt value is invalid: prompt=mobile (out-of-band authorization) is not supported yet");
  }
  if (!prompt.every((v) => PROMPTS.includes(v))) throw new InvalidRequest("Prompt value is invalid");
  if (prompt.includes("none") && prompt.length > 1) {
    throw new InvalidRequest("Prompt value is invalid: none cannot be combined with other values");
  }
  return prompt;
}
