// The webhooks context's public face: its module. Its events (types and stored names) are in events.ts.
export { WebhooksModule } from './webhooks.module';
