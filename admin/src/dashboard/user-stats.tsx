import { Alert, Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { useGetList, useLocaleState, useTranslate } from 'react-admin';

const counts = [
  { key: 'total_users', filter: {} },
  { key: 'active_users', filter: { is_active: true } },
  { key: 'inactive_users', filter: { is_active: false } },
] as const;

// The api sorts by a known column only; any will do for a count.
const onePage = { pagination: { page: 1, perPage: 1 }, sort: { field: 'created_at', order: 'DESC' as const } };

/** How many users match: the Content-Range total of a one-row page. */
function UserCount({ label, filter }: { label: string; filter: Record<string, boolean> }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { total, isPending, error } = useGetList('users', { ...onePage, filter });
  return (
    <Card sx={{ flex: '1 1 180px' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {translate(label)}
        </Typography>
        <Typography variant="h4" component="p">
          {isPending ? <Skeleton width={60} /> : error ? '—' : (total ?? 0).toLocaleString(locale === 'fa' ? 'fa-IR' : 'en-US')}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** User counts for the dashboard; the refresh button reloads them. */
export function UserStats() {
  const translate = useTranslate();
  const { error } = useGetList('users', { ...onePage, filter: {} });
  return (
    <>
      {error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {translate('meshwork.dashboard.stats.load_failed')}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 2 }}>
        {counts.map(({ key, filter }) => (
          <UserCount key={key} label={`meshwork.dashboard.stats.${key}`} filter={filter} />
        ))}
      </Box>
    </>
  );
}
