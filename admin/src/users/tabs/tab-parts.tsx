import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** What a tab shows when the user has nothing to list yet. */
export function NothingYet({ message }: { message: string }) {
  const translate = useTranslate();
  return (
    <Typography color="text.secondary" sx={{ p: 2 }}>
      {translate(message)}
    </Typography>
  );
}
