// The webhooks context's public face: its module and its plan follower's name (health lists it). Its events (types and stored names) are in events.ts.
export { WebhooksModule } from './webhooks.module';
export { WEBHOOK_PLAN_FOLLOWER } from './application/webhook-plan.follower';
