import { Link } from 'react-router';
import { verifySignatureExample } from '../../../shared/webhooks/signature-example';
import { CodeBlock } from './code-block';
import { DocSection } from './doc-section';
import { DocHeading, InlineCode } from './doc-text';

/** The event types an endpoint can subscribe to (webhooks-docs.unit.spec.tsx holds this to the api's list). */
export const documentedEventTypes: [type: string, when: string][] = [
  ['subscription.changed', 'the subscription was activated, upgraded, downgraded, renewed, cancelled, past due or expired'],
  ['payment.succeeded', 'a payment went through'],
  ['payment.failed', 'a payment was declined'],
  ['payment.refunded', 'a payment was refunded, in part or in full'],
  ['device.signed_in', 'a new device signed in to your account'],
  ['device.revoked', 'a device was revoked and its tokens stopped working'],
  ['network.created', 'a network was created'],
  ['network.suspended', 'a network was suspended because your plan no longer allows it'],
  ['network.deleted', 'a network was deleted'],
  ['network.client_joined', 'a client device joined a network'],
  ['network.client_left', 'a client device left a network or was removed from it'],
  ['model_access.changed', 'a model became available to your plan, or stopped being available'],
];

export const webhookPayloadExample = `POST /meshwork/webhooks HTTP/1.1
Content-Type: application/json
User-Agent: Meshwork-Webhooks/1
Meshwork-Event-Id: 5b0e8f0c-4a57-4d1e-9c61-0f3f2f4f9a11
Meshwork-Delivery-Id: 8d7b2c3e-1f0a-4e6b-b1d2-7a9c4e5f6a70
Meshwork-Signature: t=1795000000,v1=9f2c…

{
  "id": "5b0e8f0c-4a57-4d1e-9c61-0f3f2f4f9a11",
  "type": "device.revoked",
  "api_version": "2026-11-01",
  "created_at": "2026-11-27T09:30:00.000Z",
  "data": { "device_id": "c1a4…", "by": "user" }
}`;

/** Webhooks (Enterprise): the events, the envelope every request carries, and how to check its signature. */
export function WebhooksDocs() {
  return (
    <DocSection id="webhooks" title="Webhooks">
      <p>
        On the <strong>Enterprise</strong> plan, Meshwork sends an HTTPS <InlineCode>POST</InlineCode> to the endpoints you add under{' '}
        <Link to="/settings/webhooks" className="font-medium text-brand-700 underline dark:text-brand-300">
          Settings → Webhooks
        </Link>{' '}
        whenever one of the events it subscribes to happens. There you also see each delivery, resend it, and send a test event.
      </p>
      <DocHeading>Events</DocHeading>
      <ul className="list-disc space-y-1 pl-6">
        {documentedEventTypes.map(([type, when]) => (
          <li key={type}>
            <InlineCode>{type}</InlineCode>: {when}.
          </li>
        ))}
      </ul>
      <DocHeading>The request</DocHeading>
      <p>
        Every body is the same JSON envelope: the event&apos;s <InlineCode>id</InlineCode> (the same on every retry and resend, so
        de-duplicate on it), its <InlineCode>type</InlineCode>, the payload&apos;s <InlineCode>api_version</InlineCode>, when it happened,
        and the event&apos;s <InlineCode>data</InlineCode>. The OpenAPI document describes each type&apos;s data.
      </p>
      <CodeBlock label="A delivery" code={webhookPayloadExample} />
      <p>
        Answer with any 2xx status within a few seconds. Anything else, or no answer, is retried with exponential backoff for at least 24
        hours; an endpoint that keeps failing is disabled and you are mailed. Deliveries are at least once: the same event may arrive more
        than once.
      </p>
      <DocHeading>Verify the signature</DocHeading>
      <p>
        <InlineCode>Meshwork-Signature</InlineCode> holds <InlineCode>t=</InlineCode>, the Unix time of signing, and{' '}
        <InlineCode>v1=</InlineCode>, the hex HMAC-SHA256 of <InlineCode>{'<t>.<raw body>'}</InlineCode> keyed with the endpoint&apos;s
        signing secret. After you roll a secret, both the old and the new one sign until the overlap ends, so there are two{' '}
        <InlineCode>v1=</InlineCode> values: accept the request when one matches. Reject old timestamps to stop replays.
      </p>
      <CodeBlock label="verify-meshwork-signature.mjs (Node)" code={verifySignatureExample} />
    </DocSection>
  );
}
