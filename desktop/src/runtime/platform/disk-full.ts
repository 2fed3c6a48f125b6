/** The disk (or this user's share of it) has no room for what the host was writing; the message says what to do. */
export class DiskFull extends Error {}

/** The error codes of a write the disk had no room for: no space, over quota, past the file-size limit. */
const FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/** Whether `error` is a write that failed for want of room. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && FULL.has(code);
}
