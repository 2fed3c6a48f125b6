/**
 * What the documentation tells a customer about the installed desktop app, in one place: the
 * app's defaults (desktop/src/runtime/host-config.ts, its data directory, the release scripts)
 * as the customer meets them. documentation-page.unit.spec.tsx checks them against the app's
 * sources, so a change there that is not made here fails the site's tests.
 */

/** The app's own window, on this computer only: the app opens it by itself when it starts. */
export const APP_WINDOW_PORT = 8434;
export const APP_WINDOW_URL = `http://127.0.0.1:${APP_WINDOW_PORT}`;

/** The OpenAI-compatible api every installed app serves to its network (keys required). */
export const LOCAL_API_PORT = 8431;
/** The base URL as other machines on the network use it. */
export const LOCAL_API_BASE_URL = `http://<device address>:${LOCAL_API_PORT}/v1`;
/** The same api from the machine the app runs on: what the printed examples call. */
export const LOCAL_API_BASE_URL_HERE = `http://127.0.0.1:${LOCAL_API_PORT}/v1`;

/** A network's host: TLS for its devices, and the multicast announcement they find it by. */
export const NETWORK_PORT = 8433;
export const DISCOVERY_PORT = 8432;

/** Where the app keeps its models, sign-in and API keys. */
export const DATA_DIRECTORY = { windows: '%LOCALAPPDATA%\\Meshwork', linux: '~/.local/share/meshwork' } as const;

/** The release files' names, as the site serves them (the version is the release's). */
export const releaseFile = (extension: 'exe' | 'deb' | 'tar.gz') => `Meshwork-Desktop-v<version>.${extension}`;
