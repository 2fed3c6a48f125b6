// The catalog context's public face: only what other contexts call. Its events (types and
// stored names) are in events.ts. Anything else in catalog/ is its own business (ESLint
// refuses deep imports from outside).
export { CatalogAdmin } from './application/catalog-admin';
export { CatalogHistory } from './application/catalog-history';
export { CatalogQueries } from './application/catalog.query';
export { modelsOfPlans } from './application/plan-models.query';
export { CatalogModule } from './catalog.module';
export { CATALOG_PROJECTION } from './projections/catalog.entities';
