import type { ShellApi } from '@meshwork/contracts';

declare global {
  interface Window {
    /** Present only in the Electron shell's window (its preload script). */
    meshworkShell?: ShellApi;
  }
}

export const desktopShell = (): ShellApi | undefined => window.meshworkShell;
