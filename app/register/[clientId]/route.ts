import { jsonEndpoint } from "@/lib/http/respond";
import {
  handleDeleteRegistration, handleReadRegistration, handleUpdateRegistration,
} from "@/lib/registration/handle-registration";

// The client configuration endpoint, {registration_client_uri} - RFC 7592 §2 (docs/registration.md)
export const GET = jsonEndpoint("register-read", handleReadRegistration);
export const PUT = jsonEndpoint("register-update", handleUpdateRegistration);
export const DELETE = jsonEndpoint("register-delete", handleDeleteRegistration);
export const dynamic = "force-dynamic";
