// Types for socket-relay.cjs, for the TypeScript tests that load it.
export interface Relay {
  /** The TCP port it listens on; null on a Unix socket. */
  port: number | null;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}
export declare function startRelay(from: string, to: string): Promise<Relay>;
/** This file's path, to run it as a script in another network namespace. */
export declare const RELAY_SCRIPT: string;
