import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { parse as parseYaml } from "yaml";
import { OPENAPI_DOCUMENTS } from "@/lib/network-apis/openapi-document";

/** An API's answer as the tests read it. */
export interface ApiAnswer {
  status: number;
  headers?: Headers;
  body: unknown;
}

type ApiName = keyof typeof OPENAPI_DOCUMENTS;
const documents = new Map<ApiName, Record<string, unknown>>();
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

function document(api: ApiName): Record<string, unknown> {
  let doc = documents.get(api);
  if (!doc) {
    doc = parseYaml(readFileSync(path.join(process.cwd(), "lib/network-apis/openapi", OPENAPI_DOCUMENTS[api]), "utf8"));
    documents.set(api, doc!);
    ajv.addSchema(doc!, api);
  }
  return doc!;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/**
 * Checks an answer against the API's published OpenAPI document: the operation `method` `operationPath` (as the
 * document writes it, e.g. "/check") must document `status`, and the body must validate against that response's
 * application/json schema. Returns the validation errors ([] when valid).
 */
export function openApiErrors(api: ApiName, operationPath: string, method: string, answer: ApiAnswer): string[] {
  const doc = document(api) as { paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>;
    components: { responses: Record<string, unknown> } };
  const operation = doc.paths[operationPath]?.[method.toLowerCase()];
  if (!operation) return [`${method} ${operationPath} is not in the ${api} document`];
  const response = operation.responses[String(answer.status)];
  if (!response) return [`status ${answer.status} is not documented for ${method} ${operationPath}`];
  const base = response.$ref
    ? `${api}${response.$ref}`
    : `${api}#/${pointer("paths", operationPath, method.toLowerCase(), "responses", String(answer.status))}`;
  const validate = ajv.compile({ $ref: `${base}/content/application~1json/schema` });
  if (validate(answer.body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message ?? ""}`);
}
