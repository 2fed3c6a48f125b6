import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface RunnerProcess {
  child: ChildProcess;
  /** Resolves when the child reports this state (or has already). */
  reached(state: string, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts runner-child.ts in its own Node process, TypeScript compiled on the fly. */
export function spawnRunner(env: Record<string, string>): RunnerProcess {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', path.join(__dirname, 'runner-child.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const seen = new Set<string>();
  const listeners = new Set<() => void>();
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      try {
        seen.add((JSON.parse(line) as { state: string }).state);
      } catch {
        // not one of ours
      }
    }
    listeners.forEach((l) => l());
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    exited,
    reached(state, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!seen.has(state)) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`runner never reached ${state} (saw ${[...seen].join(', ') || 'nothing'})`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
  };
}
