// Types for api-process.cjs, for the TypeScript tests that load it.
import type { ChildProcess, StdioOptions } from 'node:child_process';

export declare const API_NODE_FLAGS: string[];
export declare function spawnApi(env: NodeJS.ProcessEnv, stdio: StdioOptions): ChildProcess;
export interface ApiProcess {
  base: string;
  pid: number;
  databaseUrl: string;
  tool(script: string, args: string[]): Promise<void>;
  staffToken(): Promise<string>;
  stop(): Promise<void>;
}
export declare function startApiProcess(name: string, databaseUrl: string, settings?: Record<string, string>): Promise<ApiProcess>;
export declare function resetPeakRss(pid: number): void;
export declare function residentRss(pid: number): number;
export declare function peakRss(pid: number): number;
export declare function freePort(): Promise<number>;
export interface GeneratedFile {
  size: number;
  chunks(): Generator<Buffer>;
  sha256: string;
}
export declare function generatedFile(size: number): GeneratedFile;
export declare function uploadModel(
  base: string,
  token: string,
  name: string,
  fileName: string,
  file: GeneratedFile,
): Promise<{ status: number; body: unknown }>;
