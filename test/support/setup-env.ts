import { inject } from "vitest";
import { TEST_SECRETS } from "./server";

// Every test worker talks to the same database as the running server.
Object.assign(process.env, TEST_SECRETS, { DATABASE_URL: inject("databaseUrl"), ISSUER: inject("baseUrl") });
