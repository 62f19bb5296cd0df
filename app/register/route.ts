import { jsonEndpoint } from "@/lib/http/respond";
import { handleRegistration } from "@/lib/registration/handle-registration";

// POST {registration_endpoint} - RFC 7591 §3 (docs/registration.md)
export const POST = jsonEndpoint("register", handleRegistration);
export const dynamic = "force-dynamic";
