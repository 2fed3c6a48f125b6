import LockIcon from '@mui/icons-material/Lock';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { useEffect } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { siteDashboardUrl } from '../auth/site-urls';

/** Long enough to read the toast before the customer dashboard replaces the console. */
export const ACCESS_DENIED_REDIRECT_MS = 2500;

/**
 * What a signed-in user who is not staff sees (spec sections 2 and 6): the toast 'Access
 * denied. Admin privileges required.', an Access Denied screen with a link to /dashboard, and
 * then /dashboard itself. Their site session is left alone.
 */
export function AccessDenied() {
  const translate = useTranslate();
  const notify = useNotify();
  useEffect(() => {
    notify('meshwork.auth.access_denied', { type: 'error' });
    const timer = setTimeout(() => window.location.replace(siteDashboardUrl()), ACCESS_DENIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [notify]);

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', mt: 8, px: 2 }}>
      <Card sx={{ maxWidth: 480, textAlign: 'center' }} role="alert">
        <CardContent>
          <LockIcon color="error" sx={{ fontSize: 48 }} />
          <Typography variant="h5" component="h1" gutterBottom>
            {translate('meshwork.auth.access_denied_title')}
          </Typography>
          <Typography gutterBottom>{translate('meshwork.auth.access_denied')}</Typography>
          <Typography variant="body2" color="text.secondary" gutterBottom>
            {translate('meshwork.auth.redirecting')}
          </Typography>
          <Button variant="contained" href={siteDashboardUrl()} sx={{ mt: 2 }}>
            {translate('meshwork.auth.go_to_dashboard')}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
}
