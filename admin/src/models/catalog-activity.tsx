import { Stack } from '@mui/material';
import { ResourceHistory } from '../audit/resource-history';

/**
 * What happened to models and to desktop releases, newest first, from the audit trail (the
 * event log, with each actor named by email): the same rows as the Audit screen, which the
 * "Open in Audit" links show in full.
 */
export function CatalogActivity() {
  return (
    <Stack sx={{ gap: 3, mt: 2 }}>
      <ResourceHistory resourceType="model" title="resources.models.activity.models" />
      <ResourceHistory resourceType="release" title="resources.models.activity.releases" />
    </Stack>
  );
}
