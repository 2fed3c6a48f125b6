import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Box, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Button, useTranslate } from 'react-admin';
import type { AuditEntry } from './audit-entry';
import { auditLinkOf, type AuditFilterValues } from './audit-filter';
import { AuditTable } from './audit-table';
import { REPLAYABLE_TYPES } from './log-point';
import { ResourceStateDialog } from './resource-state-dialog';
import { useAuditTrail } from './use-audit-trail';

interface ResourceHistoryProps {
  /** A stream category of the event log: user, plan, payment, model, networks, ... */
  resourceType: string;
  /** The id after the category in the stream's name; without it, every resource of the type. */
  resourceId?: string;
  /** A heading above the table, when the History shares its page with something else. */
  title?: string;
}

/**
 * A resource's History: the audit entries of its stream, newest first, as the Audit screen
 * shows them, and a link to the Audit screen with the same filter. For one resource of a type
 * the api can replay, each entry opens the resource's state as of that entry.
 */
export function ResourceHistory({ resourceType, resourceId, title }: ResourceHistoryProps) {
  const translate = useTranslate();
  const [viewing, setViewing] = useState<AuditEntry | null>(null);
  const replayable = resourceId !== undefined && REPLAYABLE_TYPES.includes(resourceType);
  const filter: AuditFilterValues = { resource_type: resourceType, ...(resourceId ? { resource_id: resourceId } : {}) };
  const trail = useAuditTrail(filter, 25);
  const heading = title ? translate(title) : translate('resources.audit.history.title');
  return (
    <Box sx={{ width: '100%' }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', py: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {heading}
        </Typography>
        <Button to={auditLinkOf(filter)} label="resources.audit.actions.open_in_audit">
          <OpenInNewIcon />
        </Button>
      </Stack>
      <AuditTable trail={trail} empty="resources.audit.history.empty" label={heading} onViewAsOf={replayable ? setViewing : undefined} />
      {replayable && viewing ? (
        <ResourceStateDialog
          resourceType={resourceType}
          resourceId={resourceId}
          entry={viewing}
          entries={trail.entries}
          onClose={() => setViewing(null)}
        />
      ) : null}
    </Box>
  );
}
