import { jsonEndpoint } from "@/lib/http/respond";
import { handleIntrospection } from "@/lib/oauth/token/handle-introspection";

// POST {introspection_endpoint} - RFC 7662 §2.1
export const POST = jsonEndpoint("introspect", handleIntrospection);
export const dynamic = "force-dynamic";
