import ConstructionIcon from '@mui/icons-material/Construction';
import { Card, CardActions, CardContent, Typography } from '@mui/material';
import { Button, Title, useTranslate } from 'react-admin';
import { BackIcon } from '../layout/back-icon';

/** The page of a staff screen that is not built yet, titled with that screen's name. */
export function ComingSoon({ name }: { name: string }) {
  const translate = useTranslate();
  const screen = translate(`resources.${name}.name`, { smart_count: 2 });
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={screen} />
      <CardContent>
        <ConstructionIcon color="action" sx={{ fontSize: 40 }} />
        <Typography variant="h5" component="h1" gutterBottom>
          {screen}: {translate('meshwork.coming_soon.title')}
        </Typography>
        <Typography color="text.secondary">{translate('meshwork.coming_soon.body')}</Typography>
      </CardContent>
      <CardActions>
        <Button to="/" label="meshwork.coming_soon.back">
          <BackIcon />
        </Button>
      </CardActions>
    </Card>
  );
}
