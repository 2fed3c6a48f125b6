import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { useTheme } from '@mui/material/styles';

/** "Back" points towards where the reader came from: left in English, right in Persian. */
export function BackIcon() {
  const { direction } = useTheme();
  return <ArrowBackIcon sx={direction === 'rtl' ? { transform: 'scaleX(-1)' } : undefined} />;
}
