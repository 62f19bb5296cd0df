import { openApiDocumentHandler } from "@/lib/network-apis/openapi-document";

// GET /sim-swap/v2/openapi.yaml: the API's published OpenAPI definition (docs/network-apis.md)
export const GET = openApiDocumentHandler("sim-swap");
export const dynamic = "force-dynamic";
