import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAN_DISCOVERY_PORT, LAN_NETWORK_PORT } from '@meshwork/contracts';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { defaultDataDirectory } from '../../../../../desktop/src/runtime/platform/data-directory';
import { APP_WINDOW_PORT, DATA_DIRECTORY, DISCOVERY_PORT, LOCAL_API_PORT, NETWORK_PORT } from './desktop-app-facts';
import { DocumentationPage } from './documentation-page';
import { chatCurlExample, listModelsExample, openAiClientExample } from './local-api';

/** The page as the prerender writes it, and its text as a reader sees it (tags out, entities decoded). */
const html = renderToString(
  <MemoryRouter initialEntries={['/documentation']}>
    <DocumentationPage />
  </MemoryRouter>,
);
const text = html
  .replace(/<[^>]+>/g, '')
  .replace(/&lt;/g, '<')
  .replace(/&gt;/g, '>')
  .replace(/&quot;/g, '"')
  .replace(/&#x27;/g, "'")
  .replace(/&amp;/g, '&');

/** A section's markup, from its opening tag to the next section's. */
function section(id: string): string {
  const start = html.indexOf(`<section id="${id}"`);
  expect(start, `section #${id}`).toBeGreaterThanOrEqual(0);
  const end = html.indexOf('<section', start + 1);
  return html.slice(start, end === -1 ? undefined : end);
}

describe('the documentation page: the customer’s first hour', () => {
  it('has the three sections, each titled and listed under "On this page"', () => {
    const sections: [id: string, title: string][] = [
      ['install-the-app', 'Install the app'],
      ['your-first-network', 'Your first network'],
      ['use-the-local-api', 'Use the local API'],
    ];
    for (const [id, title] of sections) {
      expect(section(id)).toContain(`<h2 id="${id}-title"`);
      expect(section(id)).toContain(`>${title}</h2>`);
      expect(html).toContain(`href="#${id}"`);
    }
  });

  it('names the app’s own ports and folders, as its sources set them', () => {
    const hostConfig = readFileSync(join(__dirname, '../../../../../desktop/src/runtime/host-config.ts'), 'utf8');
    expect(/DEFAULT_UI_PORT = (\d+)/.exec(hostConfig)?.[1], 'the window’s port (host-config.ts)').toBe(String(APP_WINDOW_PORT));
    expect(/apiPort:[^\n]*\.default\((\d+)\)/.exec(hostConfig)?.[1], 'the local API’s port (host-config.ts)').toBe(String(LOCAL_API_PORT));
    expect([NETWORK_PORT, DISCOVERY_PORT]).toEqual([LAN_NETWORK_PORT, LAN_DISCOVERY_PORT]);
    const windows = defaultDataDirectory('win32', { LOCALAPPDATA: 'C:\\Users\\kim\\AppData\\Local' }, 'C:\\Users\\kim');
    expect(windows).toBe(DATA_DIRECTORY.windows.replace('%LOCALAPPDATA%', 'C:\\Users\\kim\\AppData\\Local'));
    expect(defaultDataDirectory('linux', {}, '/home/kim')).toBe(DATA_DIRECTORY.linux.replace('~', '/home/kim'));
  });

  it('installs per platform: the Windows installer and data folder, the .deb and the archive, the window on 127.0.0.1', () => {
    const install = section('install-the-app');
    expect(install).toContain('Meshwork-Desktop-v&lt;version&gt;.exe');
    expect(install).toContain('no administrator rights');
    expect(install).toContain('%LOCALAPPDATA%\\Meshwork');
    expect(install).toContain('sudo apt install ./Meshwork-Desktop-v*.deb');
    expect(install).toContain('./meshwork-host');
    expect(install).toContain('~/.local/share/meshwork');
    expect(install).toContain(`http://127.0.0.1:${APP_WINDOW_PORT}`);
    expect(install).toContain('href="/activate"');
  });

  it('shows the local API’s base URL in the text and in every example', () => {
    expect(text).toContain('http://<device address>:8431/v1');
    expect(listModelsExample).toContain('curl http://127.0.0.1:8431/v1/models');
    expect(chatCurlExample).toContain('curl http://127.0.0.1:8431/v1/chat/completions');
    expect(openAiClientExample).toContain("baseURL: 'http://127.0.0.1:8431/v1'");
    expect(openAiClientExample).toMatch(/new OpenAI\(\{[^}]*apiKey: process\.env\.MESHWORK_API_KEY/);
    expect(openAiClientExample).toContain('client.chat.completions.create({');
    for (const example of [listModelsExample, chatCurlExample, openAiClientExample]) expect(text).toContain(example);
  });

  it('prints examples that parse: the curl commands as shell, ask.mjs as a JavaScript module', () => {
    const work = mkdtempSync(join(tmpdir(), 'docs-examples-'));
    try {
      const shell = join(work, 'examples.sh');
      writeFileSync(shell, `${listModelsExample}\n${chatCurlExample}\n`);
      execFileSync('sh', ['-n', shell]);
      const body = /-d '([^']+)'/.exec(chatCurlExample)![1]!;
      expect(JSON.parse(body)).toMatchObject({ model: expect.any(String), messages: [{ role: 'user' }] });
      const module = join(work, 'ask.mjs');
      writeFileSync(module, openAiClientExample);
      execFileSync(process.execPath, ['--check', module]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
