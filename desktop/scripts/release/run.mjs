// Runs a build tool without blocking the caller's event loop (npm start builds while it serves),
// and fails with what the tool printed.
import { execFile } from 'node:child_process';

/** Resolves with the tool's standard output; rejects naming the tool, its exit and its output. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) =>
    execFile(command, args, { maxBuffer: 64 * 1024 * 1024, encoding: 'utf8', ...options }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const why = error.code === 'ENOENT' ? 'is not installed' : `failed (${error.code ?? error.signal})`;
      reject(new Error(`${command} ${why}:\n${stdout}${stderr}`.trim()));
    }),
  );
}
