// Demo data, seeded idempotently by `npm start` (see README "Demo data").
import { config } from "../lib/config";
import { seedDemoData } from "../lib/demo/seed-demo-data";

if (!config().DEMO_DATA) {
  console.log("Demo data: not seeded (DEMO_DATA=false; the default on PostgreSQL).");
} else seedDemoData()
  .then((summary) => console.log(summary))
  .catch((err) => {
    console.error(`Seeding failed: ${(err as Error).message}`);
    process.exit(1);
  });
