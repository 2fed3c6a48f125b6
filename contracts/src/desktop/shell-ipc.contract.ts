import { z } from 'zod';

/**
 * What the Electron shell's preload script offers the host's window (`window.meshworkShell`),
 * one IPC channel per method, named after it. Where there is no shell (the runtime opened in a
 * browser) the object is absent and the window does without it.
 */
export interface ShellApi {
  /** Whether the app starts when the person logs in. */
  getStartAtLogin(): Promise<boolean>;
  setStartAtLogin(enabled: boolean): Promise<boolean>;
}
export type ShellChannel = keyof ShellApi;

/** Each channel's arguments, checked in the main process: the window's page is not trusted with more. */
export const ShellArguments = {
  getStartAtLogin: z.tuple([]),
  setStartAtLogin: z.tuple([z.boolean()]),
} satisfies Record<ShellChannel, z.ZodType<unknown[]>>;
