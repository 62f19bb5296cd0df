#!/usr/bin/env node
// Bundles the production server (server/main.ts and the lib/ code it calls) with esbuild into
// <NEXT_DIST_DIR or .next>/server.mjs, beside the Next.js build it serves. Packages stay external
// (node_modules is there at run time); `@/` imports resolve through tsconfig.json's paths.
import path from "node:path";
import { build } from "esbuild";
import { projectRoot as root } from "./env.mjs";

const distDir = process.env.NEXT_DIST_DIR || ".next";
const outfile = path.resolve(root, distDir, "server.mjs");
await build({
  entryPoints: [path.join(root, "server", "main.ts")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  tsconfig: path.join(root, "tsconfig.json"),
  sourcemap: "linked",
  logLevel: "warning",
  // Every bare `Date` in the bundle is the built-in one, captured before Next.js wraps the global
  // (server/original-date.ts).
  inject: [path.join(root, "server", "original-date.ts")],
  jsx: "automatic", // the WAP screens render the React step components (server/wap-screen.tsx)
  // Bundled CommonJS-style code calling require() (none expected) still works in the ESM output.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
console.log(`server bundled into ${path.relative(root, outfile)}`);
