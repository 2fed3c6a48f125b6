import { EVENTUALLY_MS } from './eventually';
import { required } from './infra';

interface CapturedMail {
  to: string[] | string;
  subject: string;
  text: string;
  links: string[];
}

/** Waits for the newest mail to `address` in the SMTP catcher that `npm test` runs. */
export async function mailTo(address: string, timeoutMs = EVENTUALLY_MS): Promise<CapturedMail> {
  const base = required('MAIL_CAPTURE_URL');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${base}/messages?to=${encodeURIComponent(address)}`);
    const messages = (await response.json()) as CapturedMail[];
    if (messages.length > 0) return messages[messages.length - 1]!;
    if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
