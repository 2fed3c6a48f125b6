import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AuthResponse,
  DEVICE_CODE_GRANT,
  type DeviceCodeAnswer,
  type DeviceTokenAnswer,
  type UploadResponse,
} from '@meshwork/contracts';
import { sha256, uploadForm } from '@meshwork/testkit/api/upload-kit';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import type { BrowserTest } from '@meshwork/testkit/browser';

/**
 * What the site's networks and activation tests share: accounts made on the listening api,
 * calls over HTTP as a customer or as a desktop host, and models published for a plan.
 */
export function networksKit(site: BrowserTest) {
  const { base } = site;

  /** A call to the api; answers the status and the parsed body. */
  async function call<T = unknown>(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  /** A fresh account (staff when asked), signed in as the site leaves it. */
  const account = (isStaff = false): Promise<AuthResponse> =>
    registerAccount(site.subject.app, isStaff ? 'staff' : 'customer', randomUUID().slice(0, 8), isStaff);

  /** Publishes a small model open to `plans`, as staff; answers its name (what the site chooses by). */
  async function publishModel(staff: AuthResponse, plans: string[], displayName: string): Promise<string> {
    const name = `model_${randomUUID().slice(0, 8)}`;
    const data = randomBytes(2_000);
    const fields = {
      name,
      display_name: displayName,
      version: '1.0.0',
      allowed_plans: JSON.stringify(plans),
      checksums: JSON.stringify({ 'w.onnx': sha256(data) }),
    };
    const response = await fetch(`${base}/api/v1/models/admin/upload/`, {
      method: 'POST',
      body: uploadForm(fields, [{ name: 'w.onnx', data }]),
      headers: { Authorization: `Bearer ${staff.tokens.access}` },
    });
    if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as UploadResponse).model_name;
  }

  /** A desktop host starting the device grant (RFC 8628): it asks for a code and later polls with it. */
  async function requestDeviceCode(deviceName: string): Promise<DeviceCodeAnswer> {
    const answer = await call<DeviceCodeAnswer>('POST', '/devices/code/', undefined, {
      client_id: 'meshwork-desktop',
      device_name: deviceName,
      platform: 'windows',
      app_version: '1.2.3',
      hardware_fingerprint: `fp-${randomUUID()}`,
    });
    if (answer.status !== 200) throw new Error(`devices/code answered ${answer.status}`);
    return answer.body;
  }

  /** The host's poll of the token endpoint. */
  const pollToken = (deviceCode: string) =>
    call<DeviceTokenAnswer & { error?: string }>('POST', '/devices/token/', undefined, {
      grant_type: DEVICE_CODE_GRANT,
      device_code: deviceCode,
      client_id: 'meshwork-desktop',
    });

  /** A device signed in without the browser (code, approval over HTTP, poll), for tests about something else. */
  async function signInDevice(owner: AuthResponse, deviceName: string): Promise<DeviceTokenAnswer> {
    const code = await requestDeviceCode(deviceName);
    const approved = await call('POST', '/devices/activate/', owner.tokens.access, { user_code: code.user_code, approve: true });
    if (approved.status !== 200) throw new Error(`activate answered ${approved.status}`);
    const tokens = await pollToken(code.device_code);
    if (tokens.status !== 200) throw new Error(`token answered ${tokens.status}`);
    return tokens.body;
  }

  return { call, account, publishModel, requestDeviceCode, pollToken, signInDevice };
}
