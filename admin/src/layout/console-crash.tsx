import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { Box, Button, Card, CardActions, CardContent, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { reloadFailedScreens } from '../app/lazy-screen';
import { siteDashboardUrl } from '../auth/site-urls';

/**
 * The spec's admin crash screen (section 8): 'Something went wrong', that it was logged, the
 * error id to quote, Try Again, and the ways out: the console's home and the site's dashboard.
 */
export function ConsoleCrash({ errorId, onRetry }: { errorId: string; onRetry: () => void }) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const retry = () => {
    // The crashed screen's queries are inactive now. Dropping their data makes Try Again read
    // afresh: an answer the screen could not show would otherwise come back from the cache.
    void queryClient.resetQueries({ type: 'inactive' });
    // And a screen whose code never arrived is fetched again.
    reloadFailedScreens();
    onRetry();
  };
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', mt: 6, px: 2 }}>
      <Card sx={{ maxWidth: 560, textAlign: 'center' }} role="alert">
        <CardContent>
          <ErrorOutlineIcon color="error" sx={{ fontSize: 48 }} />
          <Typography variant="h5" component="h1" gutterBottom>
            {translate('meshwork.crash.title')}
          </Typography>
          <Typography gutterBottom>{translate('meshwork.crash.body')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('meshwork.crash.error_id')}{' '}
            <Box component="code" data-testid="error-id" sx={{ userSelect: 'all', direction: 'ltr', unicodeBidi: 'embed' }}>
              {errorId}
            </Box>
          </Typography>
        </CardContent>
        <CardActions sx={{ justifyContent: 'center', flexWrap: 'wrap', gap: 1, pb: 2 }}>
          <Button variant="contained" onClick={retry}>
            {translate('meshwork.crash.try_again')}
          </Button>
          <Button href="/admin">{translate('meshwork.crash.admin_home')}</Button>
          <Button href={siteDashboardUrl()}>{translate('meshwork.crash.site_dashboard')}</Button>
        </CardActions>
      </Card>
    </Box>
  );
}
