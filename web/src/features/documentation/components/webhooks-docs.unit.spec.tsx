import { WEBHOOK_API_VERSION, WEBHOOK_EVENT_TYPES, WEBHOOK_PAYLOADS } from '@meshwork/contracts';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DocumentationPage } from './documentation-page';
import { documentedEventTypes, webhookPayloadExample } from './webhooks-docs';

describe('the documentation’s Webhooks section', () => {
  it('lists exactly the event types the api sends, in its order', () => {
    expect(documentedEventTypes.map(([type]) => type)).toEqual(Object.keys(WEBHOOK_EVENT_TYPES));
  });

  it('shows an envelope the api’s payload schema accepts', () => {
    const body = JSON.parse(webhookPayloadExample.slice(webhookPayloadExample.indexOf('\n\n') + 2).replace(/…/g, '')) as unknown;
    expect(WEBHOOK_PAYLOADS['device.revoked'].safeParse(body).success).toBe(true);
    expect(webhookPayloadExample).toContain(`"api_version": "${WEBHOOK_API_VERSION}"`);
  });

  it('is on the page and in its contents', () => {
    const html = renderToString(
      <MemoryRouter initialEntries={['/documentation']}>
        <DocumentationPage />
      </MemoryRouter>,
    );
    expect(html).toContain('<section id="webhooks"');
    expect(html).toContain('href="#webhooks"');
    expect(html).toContain('createHmac(&#x27;sha256&#x27;, secret)');
  });
});
