/**
 * What identity asks of the networks context when a desktop signs in with its password
 * (`POST /login/` with a hardware fingerprint other than "web-browser"): register the device
 * of (user, fingerprint), or note it seen. Answers the device id, whose session the sign-in
 * then opens. Identity defines and sends it; networks handles it (networks depends on
 * identity, never the other way).
 */
export class RecordDeviceSignIn {
  constructor(
    readonly userId: string,
    readonly hardwareFingerprint: string,
    readonly at: Date,
  ) {}
}

/** The fingerprint the site sends: a browser is not a device. */
export const WEB_BROWSER = 'web-browser';
