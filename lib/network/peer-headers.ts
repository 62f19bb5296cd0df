/**
 * The header server/main.ts sets on every request to the client's source port (from the socket, or behind
 * TRUSTED_PROXY from NETWORK_PORT_HEADER, which only the proxy sets), after removing any value a client sent.
 * No module here reads the database: server/ imports it.
 */
export const PEER_PORT_HEADER = "x-network-peer-port";
