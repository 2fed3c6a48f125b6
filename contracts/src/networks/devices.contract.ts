import { z } from 'zod';
import { text } from '../common/fields';
import { timestamp } from '../http/http.contract';

/**
 * Devices and their sign-in by the device authorization grant (RFC 8628). The desktop host
 * asks for a code, the person approves it on the site's /activate page, the host polls the
 * token endpoint. Field names are the RFC's (snake_case, like the rest of the api).
 */

/** The only client that may use the grant today: the desktop host. */
export const DESKTOP_CLIENT_ID = 'meshwork-desktop';

/** RFC 8628 §3.4's grant type, and RFC 6749 §6's refresh. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * User codes: 8 characters of RFC 8628 §6.1's alphabet (consonants only, no vowels so no
 * words, no look-alikes), shown and typed as XXXX-XXXX.
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

/** A user code as typed: case, spaces and dashes do not matter; anything else is not a code. */
export function normalizeUserCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  return code.length === 8 && [...code].every((c) => USER_CODE_ALPHABET.includes(c)) ? code : null;
}

/** XXXXXXXX as XXXX-XXXX. */
export const formatUserCode = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`;

export const deviceName = text('Device name', { max: 100 });

const clientId = z.literal(DESKTOP_CLIENT_ID, { error: `client_id must be "${DESKTOP_CLIENT_ID}"` });

/** `POST /devices/code/`: what the host says about itself (JSON or form-encoded). */
export const DeviceCodeRequest = z.object({
  client_id: clientId,
  device_name: deviceName,
  platform: text('Platform', { max: 50 }),
  app_version: text('App version', { max: 50 }),
  hardware_fingerprint: text('Hardware fingerprint', { max: 256 }).refine(
    (f) => f !== 'web-browser',
    'Hardware fingerprint must identify the machine',
  ),
});
export type DeviceCodeRequest = z.input<typeof DeviceCodeRequest>;

/** RFC 8628 §3.2. */
export const DeviceCodeAnswer = z
  .object({
    device_code: z.string(),
    user_code: z.string(),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.number(),
    interval: z.number(),
  })
  .meta({ id: 'DeviceCodeAnswer' });
export type DeviceCodeAnswer = z.output<typeof DeviceCodeAnswer>;

const opaque = (label: string) => text(label, { max: 512 });

/** `POST /devices/token/`: a device code (RFC 8628 §3.4) or a refresh token (RFC 6749 §6). */
export const DeviceTokenRequest = z.discriminatedUnion(
  'grant_type',
  [
    z.object({ grant_type: z.literal(DEVICE_CODE_GRANT), device_code: opaque('device_code'), client_id: clientId.optional() }),
    z.object({ grant_type: z.literal('refresh_token'), refresh_token: opaque('refresh_token'), client_id: clientId.optional() }),
  ],
  { error: `grant_type must be "${DEVICE_CODE_GRANT}" or "refresh_token"` },
);
export type DeviceTokenRequest = z.input<typeof DeviceTokenRequest>;

/** RFC 6749 §5.1, with the device the tokens belong to. */
export const DeviceTokenAnswer = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number(),
    device_id: z.string(),
  })
  .meta({ id: 'DeviceTokenAnswer' });
export type DeviceTokenAnswer = z.output<typeof DeviceTokenAnswer>;

const userCode = text('User code', { max: 20, requiredMessage: 'Enter the code your device shows' });

/** `GET /devices/activate/?user_code=`. */
export const ActivationQuery = z.object({ user_code: userCode });

/** The pending request the person confirms on /activate. */
export const PendingActivation = z
  .object({
    user_code: z.string(),
    device_name: z.string(),
    platform: z.string(),
    app_version: z.string(),
    requested_at: timestamp,
    expires_at: timestamp,
  })
  .meta({ id: 'PendingActivation' });
export type PendingActivation = z.output<typeof PendingActivation>;

/** `POST /devices/activate/`: approve (naming the device) or deny. */
export const ActivationDecision = z.object({
  user_code: userCode,
  name: deviceName.optional(),
  approve: z.boolean({ error: 'approve must be true or false' }),
});
export type ActivationDecision = z.input<typeof ActivationDecision>;

export const DeviceStatus = z.enum(['active', 'revoked']);
export type DeviceStatus = z.output<typeof DeviceStatus>;

export const Device = z
  .object({
    id: z.string(),
    name: z.string(),
    platform: z.string(),
    app_version: z.string(),
    status: DeviceStatus,
    first_seen_at: timestamp,
    last_seen_at: timestamp,
    /** The device this request comes from. */
    current: z.boolean(),
  })
  .meta({ id: 'Device' });
export type Device = z.output<typeof Device>;

export const DeviceList = z.object({ devices: z.array(Device) }).meta({ id: 'DeviceList' });
export type DeviceList = z.output<typeof DeviceList>;

export const DeviceRename = z.object({ name: deviceName });
export type DeviceRename = z.input<typeof DeviceRename>;

/** The console's view of a device: its owner and, once revoked, when and by whom (user or staff). */
export const AdminDevice = Device.omit({ current: true })
  .extend({ user_id: z.string(), revoked_at: timestamp.nullable(), revoked_by: z.enum(['user', 'staff']).nullable() })
  .meta({ id: 'AdminDevice' });
export type AdminDevice = z.output<typeof AdminDevice>;

export const AdminDeviceList = z.object({ devices: z.array(AdminDevice) }).meta({ id: 'AdminDeviceList' });
export type AdminDeviceList = z.output<typeof AdminDeviceList>;
