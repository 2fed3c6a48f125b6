// The catalog context's public face: what other contexts may use. Anything else in
// catalog/ is its own business (ESLint refuses deep imports from outside).
export { CatalogAdmin } from './application/catalog-admin';
export { CatalogQueries } from './application/catalog-queries';
export { modelManifest } from './application/model-manifest';
export { type OpenModel, openModelsOf } from './application/open-models';
export { CatalogModule } from './catalog.module';
export type { ModelEvent } from './domain/model.decider';
export { CATALOG_PROJECTION } from './projections/catalog.entities';
export { CatalogContext } from './application/catalog-context';
