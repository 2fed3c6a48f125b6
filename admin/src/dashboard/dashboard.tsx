import { Card, CardContent, Typography } from '@mui/material';
import { Title, useDefaultTitle, useTranslate } from 'react-admin';

/** The console's home page. Placeholder until the admin-panel read models exist. */
export function Dashboard() {
  const translate = useTranslate();
  // The home page carries the console's own name ("Meshwork Console") in the app bar.
  const consoleTitle = useDefaultTitle();
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={consoleTitle} />
      <CardContent>
        <Typography variant="h5" component="h1" gutterBottom>
          {translate('meshwork.dashboard.heading')}
        </Typography>
        <Typography variant="body1">{translate('meshwork.dashboard.placeholder')}</Typography>
      </CardContent>
    </Card>
  );
}
