import type { SvgIconComponent } from '@mui/icons-material';
import { Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router';

/** One tile of the dashboard's quick actions: the screen's name and what it is for. */
export function QuickActionTile({ name, icon: Icon }: { name: string; icon: SvgIconComponent }) {
  const translate = useTranslate();
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardActionArea component={Link} to={`/${name}`} sx={{ height: '100%' }}>
        <CardContent>
          <Icon color="primary" sx={{ fontSize: 36 }} />
          <Typography variant="h6" component="h3">
            {translate(`resources.${name}.name`, { smart_count: 2 })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate(`meshwork.dashboard.tiles.${name}`)}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
