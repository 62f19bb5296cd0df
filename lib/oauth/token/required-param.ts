import type { Params } from "../../http/params";
import { InvalidRequest } from "../errors";

/** A parameter that must be present and non-empty (RFC 6749 §5.2 `invalid_request`). */
export function requiredParam(params: Params, name: string): string {
  const value = params.get(name);
  if (!value) throw new InvalidRequest(`missing required parameter ${name}`);
  return value;
}
