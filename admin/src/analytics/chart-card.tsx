import { Box, Card, CardContent, Typography } from '@mui/material';
import type { ReactElement } from 'react';
import { ResponsiveContainer } from 'recharts';
import { useTranslate } from 'react-admin';

interface ChartCardProps {
  /** The i18n key of the chart's title; also the card's accessible name. */
  title: string;
  /** False when the period has nothing to draw: the card says so instead of showing bare axes. */
  hasData: boolean;
  children: ReactElement;
}

const HEIGHT = 280;

/** A titled card holding one chart, or its empty state. Charts read left to right in both languages, as dates do. */
export function ChartCard({ title, hasData, children }: ChartCardProps) {
  const translate = useTranslate();
  const name = translate(title);
  return (
    <Card component="section" aria-label={name} sx={{ minWidth: 0 }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {name}
        </Typography>
        {hasData ? (
          <Box dir="ltr" sx={{ height: HEIGHT }}>
            <ResponsiveContainer width="100%" height="100%">
              {children}
            </ResponsiveContainer>
          </Box>
        ) : (
          <Box sx={{ height: HEIGHT, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            <Typography color="text.secondary">{translate('resources.analytics.charts.empty')}</Typography>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
