// The one entry point of @meshwork/contracts: the api, the projections, the site, the console
// and the desktop host import the shared vocabulary by the package's name, never by path.
export * from './admin/admin-user.contract';
export * from './admin/analytics.contract';
export * from './admin/audit.contract';
export * from './billing/billing.contract';
export * from './catalog/catalog.contract';
export * from './catalog/model-package.contract';
export * from './common/fields';
export * from './contact/contact.contract';
export * from './desktop/host-state.contract';
export * from './desktop/lan-protocol.contract';
export * from './desktop/openai.contract';
export * from './desktop/shell-ipc.contract';
export * from './entitlements/entitlement-document.contract';
export * from './entitlements/entitlement-stream.contract';
export { base64urlDecode, base64urlEncode } from './entitlements/base64url';
export * from './entitlements/verify-entitlement';
export * from './events/event-envelope';
export * from './events/integration-message';
export * from './health/health.contract';
export * from './http/http.contract';
export * from './identity/account.contract';
export * from './networks/admin-networks.contract';
export * from './networks/devices.contract';
export * from './networks/membership.contract';
export * from './networks/networks.contract';
export * from './operations/console-error.contract';
export * from './operations/operations.contract';
