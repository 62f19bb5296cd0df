import { readFile } from "node:fs/promises";
import path from "node:path";
import { TextBodyResponse } from "../http/text-body-response";
import { withTransportHeaders } from "../http/security-headers";

/** The published CAMARA API definitions we serve (lib/network-apis/openapi, Apache 2.0, docs/network-apis.md). */
export const OPENAPI_DOCUMENTS = {
  "number-verification": "number-verification.yaml",
  "sim-swap": "sim-swap.yaml",
  "kyc-match": "kyc-match.yaml",
} as const;

const cache = new Map<string, string>();

/** The OpenAPI document of one API, as published by CAMARA (its release named in the file's `info.version`). */
export async function openApiDocumentText(api: keyof typeof OPENAPI_DOCUMENTS): Promise<string> {
  let text = cache.get(api);
  if (text === undefined) {
    text = await readFile(path.join(process.cwd(), "lib/network-apis/openapi", OPENAPI_DOCUMENTS[api]), "utf8");
    cache.set(api, text);
  }
  return text;
}

/** GET handler serving it beside the API (`…/openapi.yaml`), cacheable for an hour. */
export function openApiDocumentHandler(api: keyof typeof OPENAPI_DOCUMENTS) {
  return async (): Promise<Response> => withTransportHeaders(new TextBodyResponse(await openApiDocumentText(api), {
    status: 200, headers: { "Content-Type": "application/yaml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  }));
}
