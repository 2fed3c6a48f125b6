import type { Projection } from '../../projections/src/runner/projection';
import { auditTrailProjection } from './audit/projections/audit-trail.projection';

/** Every read model, run by the projection runner (in the api in embedded mode, or by workers). */
export const readModels: Projection[] = [auditTrailProjection];
