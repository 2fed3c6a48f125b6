import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';

const MACHINE_ID_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

async function machineId(): Promise<string> {
  for (const file of MACHINE_ID_FILES) {
    try {
      const id = (await readFile(file, 'utf8')).trim();
      if (id) return id;
    } catch {
      // try the next place
    }
  }
  return '';
}

/** The first hardware address, by interface name so it does not change with the order the OS lists them in. */
function firstMac(): string {
  const interfaces = networkInterfaces();
  for (const name of Object.keys(interfaces).sort()) {
    const mac = interfaces[name]?.find((address) => !address.internal && address.mac !== '00:00:00:00:00:00')?.mac;
    if (mac) return mac;
  }
  return '';
}

/**
 * The machine's stable fingerprint for the device grant: SHA-256 of the machine id and the first
 * MAC address, so neither leaves the machine as it is. `override` (tests, and several hosts on
 * one machine) replaces it.
 */
export async function hardwareFingerprint(override?: string): Promise<string> {
  if (override) return override;
  const id = await machineId();
  const mac = firstMac();
  if (!id && !mac)
    throw new Error('This machine has neither a machine id nor a network card to fingerprint: set MESHWORK_HARDWARE_FINGERPRINT');
  return createHash('sha256').update(`meshwork-device\n${id}\n${mac}`).digest('hex');
}
