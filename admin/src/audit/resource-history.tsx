import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Box, Stack, Typography } from '@mui/material';
import { Button, useTranslate } from 'react-admin';
import { auditLinkOf, type AuditFilterValues } from './audit-filter';
import { AuditTable } from './audit-table';
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
 * shows them, and a link to the Audit screen with the same filter.
 * (A resource's state "as of" a chosen entry belongs here too, once the api can answer it.)
 */
export function ResourceHistory({ resourceType, resourceId, title }: ResourceHistoryProps) {
  const translate = useTranslate();
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
      <AuditTable trail={trail} empty="resources.audit.history.empty" label={heading} />
    </Box>
  );
}
