import type { TestProject } from "vitest/node";
import { startServer, TEST_SECRETS } from "./server";

/** One running server (built app, fresh SQLite file) shared by the integration tests. */
export default async function setup(project: TestProject) {
  Object.assign(process.env, TEST_SECRETS);
  const server = await startServer({ name: "integration" });
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseUrl", server.databaseUrl);
  Object.assign(process.env, { DATABASE_URL: server.databaseUrl, ISSUER: server.baseUrl });
  return () => server.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
  }
}
