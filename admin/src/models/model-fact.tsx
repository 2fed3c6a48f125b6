import { Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** One "label: value" line of a card or of the details; an empty value shows as a dash. */
export function ModelFact({ label, value }: { label: string; value: string }) {
  const translate = useTranslate();
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {translate(label)}
      </Typography>
      <Typography variant="body2" sx={{ textAlign: 'end', overflowWrap: 'anywhere' }}>
        {value || translate('resources.models.card.not_given')}
      </Typography>
    </Stack>
  );
}
