import { defineConfig, devices } from "@playwright/test";

// Debian's Chromium (no browser download): /usr/bin/chromium or CHROMIUM_PATH.
const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [["list"], ["json", { outputFile: ".tmp/playwright-results.json" }], ["html", { open: "never" }]],
  globalSetup: "./e2e/fixtures/global-setup.ts",
  use: {
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath,
      args: [
        ...(isRoot ? ["--no-sandbox"] : []),
        "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
});
