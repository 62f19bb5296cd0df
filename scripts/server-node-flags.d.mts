/** Node.js (V8) flags of the production server (scripts/server-node-flags.mjs). */
export declare const SERVER_NODE_FLAGS: string[];
